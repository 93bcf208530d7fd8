/** Form submission states: idle, submitting, success, error (seed 000 §4, seed 001 §4). */
import { useCallback, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { postJson } from '../lib/api.js';

export type SubmitState = { status: 'idle' | 'submitting' } | { status: 'success' | 'error'; message: string };

export function useSubmit(path: string) {
  const { t } = useTranslation();
  const [state, setState] = useState<SubmitState>({ status: 'idle' });
  const busy = useRef(false);
  const submit = useCallback(
    async (body: Record<string, unknown>) => {
      if (busy.current) return false;
      busy.current = true;
      setState({ status: 'submitting' });
      const answer = await postJson(path, body);
      busy.current = false;
      // The server's text when it gave one (in the payload's language), else the translated default.
      if (answer.ok) setState({ status: 'success', message: answer.message ?? t('forms.defaultSuccess') });
      else setState({ status: 'error', message: answer.message ?? t('forms.defaultError') });
      return answer.ok;
    },
    [path, t],
  );
  const reset = useCallback(() => setState({ status: 'idle' }), []);
  return { state, submit, reset };
}
