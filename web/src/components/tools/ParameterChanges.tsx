/**
 * What changed between two rule years (the Texas vote panel): every parameter of the
 * state's program whose value differs between the two years, with its label, the change
 * and the source that records it (for Texas, the November 2025 propositions). Read from
 * the rule files, so the panel follows them.
 */
import { useTranslation } from 'react-i18next';
import { valueAt } from '../../../../engine/index.js';
import type { CalcResult, ParameterDef } from '../../../../engine/index.js';
import { formatDate } from '../../lib/format.js';
import type { Edition } from '../../lib/model.js';
import { formatPercent, formatUsd, type Lang } from '../../lib/format.js';
import { citationTitle } from '../../lib/citations.js';

export interface Change {
  id: string;
  label: string;
  before: string;
  after: string;
  source?: { title: string; href: string };
}

function show(p: ParameterDef, v: unknown, lang: Lang): string {
  if (typeof v === 'number') return p.unit === 'usd' ? formatUsd(v, lang) : p.unit === 'percent' ? formatPercent(v, lang) : String(v);
  return JSON.stringify(v);
}

export function parameterChanges(edition: Edition, years: [number, number], lang: Lang): Change[] {
  const programId = edition.state.programs[0]?.program;
  if (!programId) return [];
  const [d0, d1] = years.map((y) => edition.calculator.compiled(programId, y).date) as [string, string];
  const out: Change[] = [];
  for (const id of Object.values(edition.bundle.programs[programId]?.parameters ?? {})) {
    const p = edition.bundle.parameters[id];
    if (!p) continue;
    const a = valueAt(p, d0);
    const b = valueAt(p, d1);
    if (!a || !b || a === b) continue;
    const va = a.value ?? a.bands;
    const vb = b.value ?? b.bands;
    if (JSON.stringify(va) === JSON.stringify(vb)) continue;
    const ref = b.reference.find((r) => /^https?:\/\//.test(r.href));
    out.push({ id, label: p.label[lang] ?? p.label.en, before: show(p, va, lang), after: show(p, vb, lang), source: ref });
  }
  return out;
}

export function ParameterChanges({ edition, years, lang }: { edition: Edition; years: [number, number]; lang: Lang }) {
  const { t } = useTranslation();
  const changes = parameterChanges(edition, years, lang);
  if (!changes.length) return null;
  return (
    <div className="changes" data-testid="rule-changes">
      <h4>{t('tools.changesTitle', { from: years[0], to: years[1] })}</h4>
      <ul>
        {changes.map((c) => (
          <li key={c.id} data-testid="rule-change" data-parameter={c.id}>
            <strong>{c.label}</strong>: {t('tools.change', { before: c.before, after: c.after })}
            {c.source && (
              <>
                {' '}
                ·{' '}
                <a href={c.source.href} target="_blank" rel="noopener noreferrer" lang={citationTitle(c.source.title, lang, t).lang}>
                  {citationTitle(c.source.title, lang, t).text}
                </a>
              </>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

type CalculatorDef = Edition['state']['calculators'][number];

/**
 * The measures of a vote (the Texas November 2025 amendments): each proposition's title,
 * description, change (its parameters in the two rule years) and, once calculated, what it
 * saves on the visitor's property (the engine's `propositions`); then the voting dates. All
 * from the state file and the parameters.
 */
export function Propositions({ edition, calculator, lang, result }: { edition: Edition; calculator: CalculatorDef; lang: Lang; result: CalcResult | null }) {
  const { t } = useTranslation();
  if (!calculator.compare || !calculator.propositions?.length) return null;
  const changes = parameterChanges(edition, calculator.compare.years, lang);
  const saved = new Map(((result?.propositions ?? []) as Array<{ id: string; savings: number }>).map((p) => [p.id, p.savings]));
  return (
    <div className="changes" data-testid="propositions">
      <h4>{t('tools.propositionsTitle')}</h4>
      <ul>
        {calculator.propositions.map((p) => (
          <li key={p.id} data-testid="proposition" data-id={p.id}>
            <strong>{p.title[lang] ?? p.title.en}</strong>: {p.description[lang] ?? p.description.en}
            {changes
              .filter((c) => p.parameters.includes(c.id))
              .map((c) => (
                <span key={c.id} className="help" data-testid="proposition-change">
                  {' '}
                  {c.label}: {t('tools.change', { before: c.before, after: c.after })}.
                </span>
              ))}
            {saved.has(p.id) && (
              <span data-testid="proposition-savings" data-value={saved.get(p.id)}>
                {' '}
                {t('tools.propositionSaves', { amount: formatUsd(saved.get(p.id)!, lang) })}
              </span>
            )}
            {p.reference?.map((r) => (
              <span key={r.href}>
                {' '}
                ·{' '}
                <a href={r.href} target="_blank" rel="noopener noreferrer" lang={citationTitle(r.title, lang, t).lang}>
                  {citationTitle(r.title, lang, t).text}
                </a>
              </span>
            ))}
          </li>
        ))}
      </ul>
      {calculator.voting && calculator.voting.length > 0 && (
        <dl className="rows" data-testid="voting-dates">
          {calculator.voting.map((v) => (
            <div className="row" key={v.date}>
              <dt>{v.label[lang] ?? v.label.en}</dt>
              <dd>
                {formatDate(new Date(`${v.date}T12:00:00Z`), lang)}
                {v.note ? ` · ${v.note[lang] ?? v.note.en}` : ''}
              </dd>
            </div>
          ))}
        </dl>
      )}
    </div>
  );
}
