/**
 * A dollar amount as people type or paste it ("$450,000.00", "450 000", "1.250.000"):
 * read by the engine's one reading of input text (web/src/lib/parseValue.ts readMoneyText), as the CLI's flags are, so a pasted price
 * never becomes 100 times larger. While the field has focus it keeps the visitor's text;
 * on leaving it shows the amount with the page's separators. Text that is not an amount
 * gets the field's message and counts as no value (the calculation will not use a stale
 * one).
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatNumber, type Lang } from '../lib/format.js';
import { parseOptionalAmount, readMoneyText } from '../lib/parseValue.js';

export interface MoneyInputProps {
  id: string;
  value: number | null;
  /** The amount read (negative amounts become 0, as seed 000 §5 asks), or null when empty or not an amount. */
  onChange: (value: number | null, problem: string) => void;
  lang: Lang;
  testId: string;
  describedBy?: string;
  invalid?: boolean;
  disabled?: boolean;
  inputRef?: React.Ref<HTMLInputElement>;
}

/** The message for text that is not an amount ('' when it is one or is empty). */
export function moneyProblem(text: string, t: (k: string) => string): string {
  const { problem } = readMoneyText(text);
  return problem ? t(problem) : '';
}

export function MoneyInput({ id, value, onChange, lang, testId, describedBy, invalid, disabled, inputRef }: MoneyInputProps) {
  const { t } = useTranslation();
  const [text, setText] = useState<string | null>(null);
  const shown = text ?? (value === null ? '' : formatNumber(value, lang, 2));
  return (
    <input
      id={id}
      ref={inputRef}
      type="text"
      inputMode="decimal"
      autoComplete="off"
      data-testid={testId}
      disabled={disabled}
      aria-describedby={describedBy}
      aria-invalid={invalid ? true : undefined}
      value={shown}
      onFocus={() => setText(shown)}
      onBlur={() => {
        // Keep text that is not an amount on screen so it can be corrected; tidy the rest.
        if (text !== null && !moneyProblem(text, t)) setText(null);
      }}
      onChange={(e) => {
        const raw = e.target.value;
        setText(raw);
        const r = readMoneyText(raw);
        onChange(r.value, r.problem ? t(r.problem) : '');
      }}
    />
  );
}

/**
 * The amount control of a declared input, as the calculator's fields and the tools show it:
 * a dollar amount ($ prefix, MoneyInput) or a year (plain numeric text, no problem message
 * of its own; the caller checks the bounds).
 */
export function AmountControl({ year, ...props }: MoneyInputProps & { year: boolean }) {
  const { id, value, onChange, testId, describedBy, invalid, disabled } = props;
  return (
    <div className={year ? '' : 'input-prefix'}>
      {!year && <span aria-hidden="true">$</span>}
      {year ? (
        <input
          id={id}
          type="text"
          inputMode="numeric"
          autoComplete="off"
          data-testid={testId}
          disabled={disabled}
          aria-describedby={describedBy}
          aria-invalid={invalid ? true : undefined}
          value={value === null ? '' : String(value)}
          onChange={(e) => onChange(parseOptionalAmount(e.target.value), '')}
        />
      ) : (
        <MoneyInput {...props} />
      )}
    </div>
  );
}
