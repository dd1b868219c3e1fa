/**
 * What a screen reader reads of a field each time the keyboard lands on it: whether it is invalid and its
 * description (the texts its aria-describedby names), as they are at that moment, not as they are later.
 */
export function heardOnFocus(field: HTMLElement) {
  const heard: Array<{ invalid: boolean; description: string }> = [];
  field.addEventListener('focus', () => {
    const ids = field.getAttribute('aria-describedby')?.split(/\s+/).filter(Boolean) ?? [];
    heard.push({
      invalid: field.getAttribute('aria-invalid') === 'true',
      description: ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' '),
    });
  });
  return heard;
}
