import { rename, writeFile } from 'node:fs/promises';
import { z } from 'zod';
import { adminProgramWriteSchema, programWriteOf } from '@shared/contract';
import { isolated } from '@shared/contract/plain';
import * as programs from '../guidance/programs';
import { ApiError } from '../http/errors';
import { CliError, EXIT, readJsonFile } from './cli-io';
import type { Command, CommandContext } from './cli-commands';

// The CLI's program commands (docs/product/guidance.md#staff-editing): the same services as the
// admin API. A program file is the API's body: one program, or a list of them.

const print = (c: CommandContext, line: string) => c.io.stdout.write(`${line}\n`);
const programFileSchema = z.union([adminProgramWriteSchema, z.array(adminProgramWriteSchema).min(1)]);

function slugArgument(c: CommandContext): string {
  const slug = c.positionals[0];
  if (!slug) throw new CliError('Missing the program slug (see list-programs).', EXIT.usage);
  return slug;
}

export const PROGRAM_COMMANDS: Record<string, Command> = {
  'list-programs': {
    usage: 'list-programs',
    summary: 'List the programs in their order, with their days.',
    async run(c) {
      const list = await programs.adminListPrograms(c.store.db);
      for (const program of list)
        print(
          c,
          `${program.slug.padEnd(28)} ${String(program.day_count).padStart(3)} days  ${isolated(program.title)}`,
        );
      print(c, `${list.length} program${list.length === 1 ? '' : 's'}.`);
    },
  },
  'import-program': {
    usage: 'import-program <file.json>',
    summary: 'Add or replace programs (by slug) from a JSON file: one program or a list.',
    async run(c) {
      const file = c.positionals[0];
      if (!file) throw new CliError('Missing the JSON file.', EXIT.usage);
      const data = await readJsonFile(file, programFileSchema, 'a program file');
      for (const program of Array.isArray(data) ? data : [data]) {
        const exists = await programs.adminGetProgram(c.store.db, program.slug).then(
          () => true,
          (error: unknown) => {
            if (error instanceof ApiError && error.statusCode === 404) return false;
            throw error;
          },
        );
        if (exists) await programs.replaceProgram(c.store.db, program.slug, program);
        else await programs.createProgram(c.store.db, program);
        print(c, `${exists ? 'Replaced' : 'Added'} ${program.slug} (${program.days.length} days).`);
      }
    },
  },
  'export-program': {
    usage: 'export-program <slug> [file.json]',
    summary: 'Write a program as JSON, ready to edit and import again (to stdout without a file).',
    async run(c) {
      const program = await programs.adminGetProgram(c.store.db, slugArgument(c));
      const json = `${JSON.stringify(programWriteOf(program), null, 2)}\n`;
      const file = c.positionals[1];
      if (!file) {
        c.io.stdout.write(json);
        return;
      }
      const temp = `${file}.${process.pid}.tmp`;
      await writeFile(temp, json);
      await rename(temp, file);
      print(c, `Exported ${program.slug} (${program.days.length} days) to ${file}.`);
    },
  },
  'remove-program': {
    usage: 'remove-program <slug>',
    summary: 'Delete a program and everyone’s progress in it.',
    async run(c) {
      const slug = slugArgument(c);
      await programs.deleteProgram(c.store.db, slug);
      print(c, `Removed ${slug}.`);
    },
  },
};
