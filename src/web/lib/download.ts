/** Hands text made in the page to the browser as a file download. */
export function saveAsFile(fileName: string, content: string, type: string): void {
  const url = URL.createObjectURL(new Blob([content], { type }));
  const link = Object.assign(document.createElement('a'), { href: url, download: fileName });
  link.click();
  // Revoked after the click has been handled; an immediate revoke can cancel the download in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
