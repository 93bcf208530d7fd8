/** Toasts: bottom-right, at most 3 visible, 4000 ms by default (seed 000 §8, seed 001 §9). */
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { UI } from '../lib/config.js';
import { Island } from '../islands.js';

export type ToastType = 'success' | 'error' | 'warning' | 'info';
export interface ToastInput {
  type?: ToastType;
  title: string;
  description?: string;
  duration?: number;
  action?: { label: string; onClick: () => void };
}
interface Toast extends ToastInput {
  id: number;
  type: ToastType;
}

type Push = (t: ToastInput) => number;
const ToastContext = createContext<{ push: Push; dismiss: (id: number) => void } | null>(null);

/**
 * The page's toasts when its parts are separate React roots (islands, main.tsx): one list for
 * the page, shown by the `toasts` island (`ToastRegion`); a `ToastProvider` has its own.
 */
let pageToasts: Toast[] = [];
let pageNext = 1;
const pageListeners = new Set<() => void>();
const pageTimers = new Map<number, ReturnType<typeof setTimeout>>();
const setPageToasts = (list: Toast[]) => {
  pageToasts = list;
  pageListeners.forEach((l) => l());
};
const pageDismiss = (id: number) => {
  setPageToasts(pageToasts.filter((t) => t.id !== id));
  clearTimeout(pageTimers.get(id));
  pageTimers.delete(id);
};
const pagePush: Push = (input) => {
  const id = pageNext++;
  setPageToasts([...pageToasts, { ...input, id, type: input.type ?? 'info' }].slice(-UI.toastsVisible));
  pageTimers.set(
    id,
    setTimeout(() => pageDismiss(id), input.duration ?? UI.toastMs),
  );
  return id;
};
const subscribePage = (l: () => void) => {
  pageListeners.add(l);
  return () => pageListeners.delete(l);
};
const NO_TOASTS: Toast[] = [];

/** Push a toast: the nearest ToastProvider's, else the page's list (islands). */
export function useToast(): Push {
  const ctx = useContext(ToastContext);
  return ctx ? ctx.push : pagePush;
}

/** The page's toast region (the `toasts` island). */
export function ToastRegion() {
  const toasts = useSyncExternalStore(
    subscribePage,
    () => pageToasts,
    () => NO_TOASTS,
  );
  return <Toasts toasts={toasts} dismiss={pageDismiss} />;
}

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const next = useRef(1);
  const timers = useRef(new Map<number, ReturnType<typeof setTimeout>>());
  const dismiss = useCallback((id: number) => {
    setToasts((list) => list.filter((t) => t.id !== id));
    const timer = timers.current.get(id);
    if (timer) clearTimeout(timer);
    timers.current.delete(id);
  }, []);
  const push = useCallback<Push>(
    (input) => {
      const id = next.current++;
      // The oldest leave when more than 3 would show.
      setToasts((list) => [...list, { ...input, id, type: input.type ?? 'info' }].slice(-UI.toastsVisible));
      timers.current.set(
        id,
        setTimeout(() => dismiss(id), input.duration ?? UI.toastMs),
      );
      return id;
    },
    [dismiss],
  );
  useEffect(() => () => timers.current.forEach(clearTimeout), []);
  const value = useMemo(() => ({ push, dismiss }), [push, dismiss]);
  return (
    <ToastContext.Provider value={value}>
      {children}
      <Island name="toasts" props={{}}>
        <Toasts toasts={toasts} dismiss={dismiss} />
      </Island>
    </ToastContext.Provider>
  );
}

function Toasts({ toasts, dismiss }: { toasts: Toast[]; dismiss: (id: number) => void }) {
  const { t } = useTranslation();
  const region = useRef<HTMLElement>(null);
  // Alt+T moves focus to the notifications (seed 001 §9: toast hotkey Alt+T).
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.altKey && (e.key === 't' || e.key === 'T' || e.code === 'KeyT')) {
        const first = region.current?.querySelector<HTMLElement>('button');
        if (first) {
          e.preventDefault();
          first.focus();
        }
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
  return (
    <section className="toasts" aria-label={`${t('toast.region')} (Alt+T)`} ref={region}>
      <div className="toast-stack" aria-live="polite" aria-relevant="additions text">
        {toasts.map((toast) => (
          <div
            key={toast.id}
            className={`toast toast-${toast.type}`}
            data-testid="toast"
            data-type={toast.type}
            role={toast.type === 'error' ? 'alert' : 'status'}
          >
            <div className="toast-body">
              <p className="toast-title">{toast.title}</p>
              {toast.description && <p className="toast-desc">{toast.description}</p>}
            </div>
            {toast.action && (
              <button
                type="button"
                className="btn btn-small"
                onClick={() => {
                  toast.action!.onClick();
                  dismiss(toast.id);
                }}
              >
                {toast.action.label}
              </button>
            )}
            <button type="button" className="toast-close" aria-label={t('toast.close')} onClick={() => dismiss(toast.id)}>
              <span aria-hidden="true">×</span>
            </button>
          </div>
        ))}
      </div>
    </section>
  );
}
