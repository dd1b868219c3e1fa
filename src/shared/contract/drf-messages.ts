import { z } from 'zod';
import { MESSAGES } from './errors';
import { maxCharactersMessage } from './plain';

// The wording of Django REST framework's field errors, for every check a schema does not word itself
// (docs/product/errors-and-limits.md#error-bodies): a client never reads a validation library's text.

/** The names DRF gives a JSON value's type ("but got list"): Python's. */
function pythonType(value: unknown): string {
  if (value === null || value === undefined) return 'NoneType';
  if (Array.isArray(value)) return 'list';
  if (typeof value === 'string') return 'str';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  return 'dict';
}

type Issue = Parameters<z.core.$ZodErrorMap>[0];

/** DRF's ListField max_length: every list limit says it so (a schema's own `.max(n, maxElements(n))`). */
export const maxElementsMessage = (n: number) => `Ensure this field has no more than ${n} elements.`;
export const maxElements = (n: number) => ({ error: maxElementsMessage(n) });

/** Django's StepValueValidator, which DRF runs for a field's step. */
export const multipleOfMessage = (step: number) => `Ensure this value is a multiple of step size ${step}.`;

export function drfMessage(issue: Issue): string | undefined {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return MESSAGES.required;
      if (issue.input === null) return 'This field may not be null.';
      switch (issue.expected) {
        case 'object':
          return `Invalid data. Expected a dictionary, but got ${pythonType(issue.input)}.`;
        case 'array':
          return `Expected a list of items but got type "${pythonType(issue.input)}".`;
        case 'string':
          return 'Not a valid string.';
        case 'number':
          return 'A valid number is required.';
        case 'int':
          return 'A valid integer is required.';
        case 'boolean':
          return 'Must be a valid boolean.';
        default:
          return 'Invalid value.';
      }
    case 'too_big':
      if (issue.origin === 'string') return maxCharactersMessage(Number(issue.maximum));
      if (issue.origin === 'array' || issue.origin === 'set') return maxElementsMessage(Number(issue.maximum));
      return `Ensure this value is less than or equal to ${issue.maximum}.`;
    case 'too_small':
      if (issue.origin === 'string')
        return Number(issue.minimum) <= 1
          ? MESSAGES.blank
          : `Ensure this field has at least ${issue.minimum} characters.`;
      if (issue.origin === 'array' || issue.origin === 'set')
        return Number(issue.minimum) <= 1
          ? 'This list may not be empty.'
          : `Ensure this field has at least ${issue.minimum} elements.`;
      return `Ensure this value is greater than or equal to ${issue.minimum}.`;
    case 'invalid_value':
      return `"${String(issue.input)}" is not a valid choice.`;
    case 'invalid_format':
      return issue.format === 'email' ? MESSAGES.invalidEmail : 'Enter a valid value.';
    case 'unrecognized_keys':
      return `Unexpected field${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.join(', ')}.`;
    case 'not_multiple_of':
      return multipleOfMessage(Number(issue.divisor));
    case 'invalid_union':
    case 'invalid_key':
    case 'invalid_element':
      return 'Enter a valid value.';
    default:
      return undefined;
  }
}

/** Makes DRF's wording the fallback of every zod schema in this process (a schema's own message wins). */
export function applyDrfMessages(): void {
  z.config({ customError: drfMessage });
}
