/** The desk's small shared pieces: a link to a page, a refusal said, a field's problem, focus on a page's title. */
import { useEffect, useRef, type MouseEvent, type ReactNode } from 'react';
import { refusalText, russianFields } from '../services/problems';
import { pathOf, type DeskRoute } from '../services/routes';
import type { DeskProblem } from '../services/http';
import type { FieldProblem } from '../services/types';
import { deskMessages as m } from '../services/messages';
import { Desk } from './deskContext';

/** A link to a desk page: a real address (a new tab, a copied link work), followed by the machine on a plain click. */
export function DeskLink({ route, children, className, current }: { route: DeskRoute; children: ReactNode; className?: string; current?: boolean }) {
  const desk = Desk.useActorRef();
  const follow = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    desk.send({ type: 'nav.to', route });
  };
  return (
    <a href={pathOf(route)} onClick={follow} className={className} aria-current={current ? 'page' : undefined}>
      {children}
    </a>
  );
}

/** A page's title, focused when the page opens (a screen reader hears where it is; Tab goes on from there). */
export function PageTitle({ children }: { children: ReactNode }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <h1 className="page-title" tabIndex={-1} ref={ref} id="page-title">
      {children}
    </h1>
  );
}

/** A refusal or failure, said in the desk's words, with the fields at fault listed. */
export function Problem({ problem, title }: { problem: DeskProblem | null; title?: string }) {
  if (!problem) return null;
  const fields = russianFields(problem.fields);
  return (
    <div className="alert" role="alert">
      {title ?? refusalText(problem)}
      {fields.length > 0 ? (
        <ul>
          {fields.map((field) => (
            <li key={field.field}>{field.message}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** The problem of one field (by the API's name for it), Russian, for under its input. */
export function fieldProblem(problem: DeskProblem | null, field: string): string | null {
  const found: FieldProblem | undefined = problem?.fields.find((candidate) => candidate.field === field);
  return found ? russianFields([found])[0]!.message : null;
}

/** A labelled input with its hint and its problem tied to it. */
export function Field({
  id,
  label,
  hint,
  error,
  children,
}: {
  id: string;
  label: string;
  hint?: string | null;
  error?: string | null;
  children: (props: { id: string; 'aria-describedby'?: string; 'aria-invalid'?: boolean }) => ReactNode;
}) {
  const described = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ');
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children({ id, ...(described ? { 'aria-describedby': described } : {}), ...(error ? { 'aria-invalid': true } : {}) })}
      {hint ? (
        <span className="field-hint" id={`${id}-hint`}>
          {hint}
        </span>
      ) : null}
      {error ? (
        <span className="field-error" id={`${id}-error`}>
          {error}
        </span>
      ) : null}
    </div>
  );
}

/** A page still loading, or one whose data could not be read (with a way to try again). */
export function Loading() {
  return (
    <p role="status" className="muted">
      {m.app.loading}
    </p>
  );
}

export function LoadFailed({ problem, onRetry }: { problem: DeskProblem | null; onRetry: () => void }) {
  return (
    <div className="panel">
      <Problem problem={problem} title={problem?.code === 'not_found' ? refusalText(problem) : m.app.loadFailed} />
      <div>
        <button type="button" className="button secondary" onClick={onRetry}>
          {m.app.retry}
        </button>
      </div>
    </div>
  );
}
