import { useCallback, useEffect, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { ArrowLeft, ExternalLink, Pencil, Plus } from 'lucide-react';
import type { AdminProgram } from '@shared/contract';
import { goalLabel } from '@shared/contract/guidance';
import { Button } from '@web/components/ui/button';
import { ConfirmDelete, ConfirmDeleteDialog, type ConfirmText } from '@web/components/ui/confirm-delete';
import { QueryState } from '@web/components/ui/query-state';
import { describeError, failureOver, toastFailure } from '@web/lib/change';
import { dropDraft } from '@web/lib/form-draft';
import { paths } from '@web/lib/paths';
import { adminProgramQuery, adminProgramsQuery, useDeleteProgram } from '../api/programs';
import { adminKeys } from '../api/keys';
import { ProgramEditor, programDraft } from './program-editor';
import { panelClass } from './states';
import { formatDate } from '@web/lib/dates';
import { isolated } from '@shared/contract/plain';

// Programs for staff (docs/product/screens.md#admin): the list, and one program's editor at
// ?program=<slug> (or ?program=new), so the browser's back button and a shared link work.

const NEW = 'new';
const memberPath = (slug: string) => paths.program.replace(':slug', slug);

function useDelete(slug: string, title: string, onDeleted?: () => void) {
  const remove = useDeleteProgram();
  return () =>
    remove.mutateAsync(slug).then(
      () => {
        failureOver(`delete program ${slug}`);
        toast.success(`Deleted ${isolated(title)}.`);
        onDeleted?.();
      },
      (error: unknown) => {
        toastFailure(error, describeError(error), `delete program ${slug}`);
        throw error;
      },
    );
}

function DeleteProgram({
  program,
  onDeleted,
  keyboardWhenNoneLeft,
}: {
  program: Pick<AdminProgram, 'slug' | 'title'> & { people_started?: number };
  onDeleted?: () => void;
  /** In the list: where the keyboard goes from Delete once this was the last program. */
  keyboardWhenNoneLeft?: () => HTMLElement | null;
}) {
  const confirm = useDelete(program.slug, program.title, onDeleted);
  const started = program.people_started;
  return (
    <ConfirmDelete
      label={`Delete ${program.title}`}
      title={
        <>
          Delete "<bdi>{program.title}</bdi>"?
        </>
      }
      description={
        <>
          Members no longer see it, and everyone’s progress in it is deleted
          {started === undefined ? '' : ` (${started} ${started === 1 ? 'person has' : 'people have'} started it)`}.
        </>
      }
      onConfirm={confirm}
      keyboardWhenNoneLeft={keyboardWhenNoneLeft}
    />
  );
}

function ProgramList({ onOpen }: { onOpen: (slug: string) => void }) {
  const query = useQuery(adminProgramsQuery());
  const programs = query.data ?? [];
  const newProgram = useRef<HTMLButtonElement>(null);
  // The last one deleted, the keyboard goes to "New program"
  // (docs/decisions/151-a-lists-last-row-hands-the-keyboard-on-and-its-rows-line-up.md).
  const keyboardWhenNoneLeft = () => newProgram.current;
  return (
    <section className={panelClass} aria-labelledby="programs-heading">
      <div className="mb-2 flex flex-wrap items-center justify-between gap-3">
        <h2 id="programs-heading" className="card-heading">
          Programs
        </h2>
        <Button ref={newProgram} size="sm" onClick={() => onOpen(NEW)}>
          <Plus aria-hidden className="h-4 w-4" />
          New program
        </Button>
      </div>
      <QueryState
        isPending={query.isPending}
        error={query.error}
        isEmpty={programs.length === 0}
        emptyText="No programs yet. Create one, or import a file with the admin CLI."
        onRetry={() => void query.refetch()}
      >
        <ul className="divide-y divide-line">
          {programs.map((program) => (
            <li key={program.slug} className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between">
              <div className="min-w-0">
                <h3 className="font-medium wrap-anywhere">{program.title}</h3>
                <p className="text-sm text-fg-muted">
                  <span className="break-all">/programs/{program.slug}</span> · {program.day_count}{' '}
                  {program.day_count === 1 ? 'day' : 'days'}
                  {program.goals.length > 0 ? ` · ${program.goals.map(goalLabel).join(', ')}` : ''} · edited{' '}
                  {formatDate(program.updated_at)}
                </p>
              </div>
              <div className="flex shrink-0 items-center gap-1">
                <Button
                  variant="secondary"
                  size="sm"
                  aria-label={`Edit ${program.title}`}
                  onClick={() => onOpen(program.slug)}
                >
                  <Pencil aria-hidden className="h-4 w-4" />
                  Edit
                </Button>
                <Button variant="ghost" size="sm" asChild>
                  <Link to={memberPath(program.slug)} aria-label={`View ${program.title} as a member`}>
                    <ExternalLink aria-hidden className="h-4 w-4" />
                    View
                  </Link>
                </Button>
                <DeleteProgram program={program} keyboardWhenNoneLeft={keyboardWhenNoneLeft} />
              </div>
            </li>
          ))}
        </ul>
      </QueryState>
    </section>
  );
}

/** An editor's address naming no program: deleted or renamed (by someone else, or in another tab). */
export const PROGRAM_NOT_FOUND =
  'There is no program at this address: it was deleted or renamed. Choose it again from all programs.';

/** What "All programs" asks when the editor holds what is not saved. */
const LEAVE_UNSAVED = (leave: () => void): ConfirmText => ({
  title: 'Leave without saving?',
  description: 'What you changed in this program is not saved, and it goes if you leave now.',
  action: 'Leave without saving',
  doing: 'Leaving…',
  onConfirm: async () => leave(),
});

function EditProgram({ slug, onClose, onSlug }: { slug: string; onClose: () => void; onSlug: (slug: string) => void }) {
  const creating = slug === NEW;
  const query = useQuery({ ...adminProgramQuery(slug), enabled: !creating });
  const queryClient = useQueryClient();
  const program = query.data;
  const saved = (result: AdminProgram) => {
    queryClient.setQueryData(adminKeys.program(result.slug), result);
    if (result.slug !== slug) onSlug(result.slug);
  };
  // Leaving the editor this way leaves what it holds unsaved: its draft goes (decision 068), once asked when it holds
  // anything unsaved, which one press would lose (decision 107).
  const unsaved = useRef(false);
  const [asking, setAsking] = useState<ConfirmText | null>(null);
  const leave = () => {
    if (creating || program) dropDraft(programDraft(program));
    onClose();
  };
  const back = (
    <>
      <Button
        variant="ghost"
        size="sm"
        className="self-start"
        onClick={() => (unsaved.current ? setAsking(LEAVE_UNSAVED(leave)) : leave())}
      >
        <ArrowLeft aria-hidden className="h-4 w-4" />
        All programs
      </Button>
      <ConfirmDeleteDialog asking={asking} onClose={() => setAsking(null)} />
    </>
  );
  const onUnsaved = useCallback((now: boolean) => {
    unsaved.current = now;
  }, []);
  if (creating)
    return (
      <div className="flex flex-col gap-4">
        {back}
        <ProgramEditor program={undefined} onSaved={saved} onUnsaved={onUnsaved} />
      </div>
    );
  return (
    <div className="flex flex-col gap-4">
      {back}
      <QueryState
        isPending={query.isPending}
        error={query.error}
        isEmpty={false}
        emptyText=""
        onRetry={() => void query.refetch()}
        what="this program"
        notFound={
          <p role="status" className="rounded-2xl border border-line p-8 text-center">
            {PROGRAM_NOT_FOUND}
          </p>
        }
      >
        {program ? (
          <ProgramEditor
            key={program.slug}
            program={program}
            onSaved={saved}
            onUnsaved={onUnsaved}
            actions={
              <div className="flex items-center gap-1">
                <Button variant="ghost" size="sm" asChild>
                  <Link to={memberPath(program.slug)}>
                    <ExternalLink aria-hidden className="h-4 w-4" />
                    View as a member
                  </Link>
                </Button>
                <DeleteProgram program={program} onDeleted={onClose} />
              </div>
            }
          />
        ) : null}
      </QueryState>
    </div>
  );
}

/** Guidance programs: list, create, edit (text, goals, days with their sessions), delete. */
export function ProgramsPanel() {
  const [params, setParams] = useSearchParams();
  const open = params.get('program');
  const heading = useRef<HTMLDivElement>(null);
  const previous = useRef(open);
  useEffect(() => {
    // Moving between the list and an editor replaces most of the page: start the keyboard at its top.
    if (previous.current !== open) heading.current?.focus();
    previous.current = open;
  }, [open]);
  const go = (slug: string | null, replace = false) => setParams(slug === null ? {} : { program: slug }, { replace });
  return (
    <div ref={heading} tabIndex={-1} className="flex flex-col gap-6 outline-none">
      {open === null ? (
        <ProgramList onOpen={(slug) => go(slug)} />
      ) : (
        <EditProgram
          key={open === NEW ? NEW : 'edit'}
          slug={open}
          onClose={() => go(null)}
          onSlug={(slug) => go(slug, true)}
        />
      )}
    </div>
  );
}
