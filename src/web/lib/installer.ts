// What an installer is, read from its file's extension (the product stores no platform:
// content.md#desktop-applications): the one thing that tells apart the installers of one version, on the members'
// page and in the admin's list.

const PLATFORM_BY_EXTENSION: Record<string, string> = {
  '.exe': 'Windows',
  '.msi': 'Windows',
  '.dmg': 'macOS',
  '.pkg': 'macOS',
  '.deb': 'Linux',
  '.appimage': 'Linux',
};

export interface InstallerType {
  /** As stored: ".exe", ".AppImage"; empty when the file has none. */
  extension: string;
  /** The system it installs on, or null for an archive (.zip) that could hold any. */
  platform: string | null;
}

/** The type of the installer at `url` (a signed link: its query is not part of the file's name). */
export function installerType(url: string): InstallerType {
  const path = url.split(/[?#]/, 1)[0] ?? '';
  const extension = /\.[^./]+$/.exec(path)?.[0] ?? '';
  return { extension, platform: PLATFORM_BY_EXTENSION[extension.toLowerCase()] ?? null };
}

/** "Windows (.exe)", or ".zip" alone when the type names no system. */
export function describeInstaller({ extension, platform }: InstallerType): string {
  return platform ? `${platform} (${extension})` : extension;
}
