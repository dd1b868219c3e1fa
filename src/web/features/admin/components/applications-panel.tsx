import { useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import {
  applicationTextFieldsSchema,
  descriptionField,
  INSTALLER_EXTENSIONS,
  UPLOAD_LIMITS,
} from '@shared/contract/admin';
import { SubmitButton } from '@web/components/ui/submit-button';
import { Field, Textarea } from '@web/components/ui/input';
import { ApiError } from '@web/lib/api-client';
import { showServerFieldErrors } from '@web/lib/server-field-errors';
import {
  adminApplicationsQuery,
  deleteApplication,
  uploadApplication,
  useApplicationsChange,
} from '../api/applications';
import { ConfirmDelete } from '@web/components/ui/confirm-delete';
import { FileField } from './file-field';
import { QueryState } from '@web/components/ui/query-state';
import { formatSize, panelClass, UploadProgress } from './states';
import { formatDate } from '@web/lib/dates';
import { installerType } from '@web/lib/installer';
import { isolated } from '@shared/contract/plain';
import { useFocusFirstError } from '@web/lib/form-field';

const formSchema = applicationTextFieldsSchema.extend({ description: descriptionField() });
type FormValues = z.input<typeof formSchema>;

function fileProblem(file: File | undefined): string | undefined {
  if (!file) return 'Choose the installer file.';
  if (!INSTALLER_EXTENSIONS.some((ext) => file.name.toLowerCase().endsWith(ext.toLowerCase())))
    return `Choose an installer: ${INSTALLER_EXTENSIONS.join(', ')}.`;
  if (file.size === 0) return 'The chosen file is empty.';
  if (file.size > UPLOAD_LIMITS.applicationBytes)
    return `The file is larger than ${formatSize(UPLOAD_LIMITS.applicationBytes)}.`;
  return undefined;
}

function UploadApplicationForm() {
  const change = useApplicationsChange();
  const [file, setFile] = useState<File | undefined>();
  const [fileError, setFileError] = useState<string | undefined>();
  const [progress, setProgress] = useState<number | null>(null);
  const [formKey, setFormKey] = useState(0);
  const form = useForm<FormValues>({
    resolver: zodResolver(formSchema),
    defaultValues: { application_version: '', description: '' },
    shouldFocusError: false,
  });
  const { formRef, focusFirstError } = useFocusFirstError();

  const submit = form.handleSubmit(async (values) => {
    const problem = fileProblem(file);
    setFileError(problem);
    if (problem || !file) return focusFirstError();
    const body = new FormData();
    body.append('application_version', values.application_version);
    body.append('description', values.description ?? '');
    body.append('application_file', file);
    setProgress(0);
    try {
      await change(
        () => uploadApplication(body, setProgress),
        (created) => `Uploaded version ${created.application_version}.`,
        { key: 'upload' },
      );
      form.reset();
      setFile(undefined);
      setFormKey((k) => k + 1);
    } catch (error) {
      showServerFieldErrors(error, ['application_version', 'description'], form.setError, focusFirstError);
      if (error instanceof ApiError && error.fieldErrors.application_file) {
        setFileError(error.fieldErrors.application_file);
        focusFirstError();
      }
    } finally {
      setProgress(null);
    }
  }, focusFirstError);

  const busy = progress !== null;
  return (
    <form
      key={formKey}
      ref={formRef}
      onSubmit={(event) => void submit(event)}
      noValidate
      className="grid gap-4 sm:grid-cols-2"
    >
      <Field
        id="app-version"
        label="Version"
        placeholder="e.g. 2.4.0"
        disabled={busy}
        error={form.formState.errors.application_version?.message}
        {...form.register('application_version')}
      />
      <FileField
        id="app-file"
        label="Installer"
        hint={`${INSTALLER_EXTENSIONS.join(', ')} · up to ${formatSize(UPLOAD_LIMITS.applicationBytes)}`}
        disabled={busy}
        error={fileError}
        onChange={(event) => {
          setFile(event.target.files?.[0]);
          setFileError(undefined);
        }}
      />
      <div className="sm:col-span-2">
        <Textarea
          id="app-description"
          label="Description"
          placeholder="Which system it is for, what is new"
          disabled={busy}
          error={form.formState.errors.description?.message}
          {...form.register('description')}
        />
      </div>
      <div className="flex flex-col gap-3 sm:col-span-2">
        {busy ? (
          <UploadProgress
            fraction={progress}
            label={file ? `Uploading ${isolated(file.name)}` : 'Uploading installer'}
          />
        ) : null}
        <SubmitButton pending={busy} pendingLabel="Uploading" className="self-start">
          Upload installer
        </SubmitButton>
      </div>
    </form>
  );
}

/** Desktop applications: upload an installer with its version and description, delete. */
export function ApplicationsPanel() {
  const query = useQuery(adminApplicationsQuery());
  const change = useApplicationsChange();
  const apps = query.data ?? [];
  const heading = useRef<HTMLHeadingElement>(null);
  // The last one deleted, the keyboard goes to the list's heading
  // (docs/decisions/151-a-lists-last-row-hands-the-keyboard-on-and-its-rows-line-up.md).
  const keyboardWhenNoneLeft = () => heading.current;
  return (
    <div className="flex flex-col gap-6">
      <section className={panelClass} aria-labelledby="upload-app-heading">
        <h2 id="upload-app-heading" className="mb-4 card-heading">
          Upload an installer
        </h2>
        <UploadApplicationForm />
      </section>
      <section className={panelClass} aria-labelledby="apps-heading">
        <h2 ref={heading} id="apps-heading" tabIndex={-1} className="mb-4 card-heading outline-none">
          Desktop applications
        </h2>
        <QueryState
          isPending={query.isPending}
          error={query.error}
          isEmpty={apps.length === 0}
          emptyText="No desktop applications yet."
          onRetry={() => void query.refetch()}
        >
          <ul className="divide-y divide-line">
            {apps.map((app) => (
              <li key={app.id} className="flex items-center justify-between gap-3 py-3">
                <div className="min-w-0">
                  <p className="font-medium">Version {app.application_version}</p>
                  {app.description ? <p className="text-sm text-fg-muted">{app.description}</p> : null}
                  <p className="text-xs text-fg-muted">
                    {formatSize(app.size_bytes)} · {installerType(app.application_file).extension} · added{' '}
                    {formatDate(app.created_at)} ·{' '}
                    <a className="text-link underline" href={app.application_file}>
                      download
                    </a>
                  </p>
                </div>
                <ConfirmDelete
                  label={`Delete version ${app.application_version}`}
                  title={
                    <>
                      Delete version <bdi>{app.application_version}</bdi>?
                    </>
                  }
                  description="The installer file is removed and members can no longer download it."
                  onConfirm={() =>
                    change(() => deleteApplication(app.id), `Deleted version ${isolated(app.application_version)}.`, {
                      key: `delete ${app.id}`,
                    })
                  }
                  keyboardWhenNoneLeft={keyboardWhenNoneLeft}
                />
              </li>
            ))}
          </ul>
        </QueryState>
      </section>
    </div>
  );
}
