// The one way the app's lists write a date, members' and staff's alike (docs/product/screens.md#admin):
// the month by its short name, in the visitor's language and time zone, "Dec 3, 2026" in US English,
// never "12/3/2026", whose order readers take differently.

/** A day: "Dec 3, 2026". */
export const formatDate = (iso: string) => new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' });

/** A moment: "Dec 3, 2026, 7:05 AM". */
export const formatDateTime = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
