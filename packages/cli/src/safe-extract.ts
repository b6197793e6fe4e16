import { extract } from 'tar';
import { CliError } from './data-dir.js';

/**
 * Unpacks a .tar.gz into `staging`, keeping only regular files and directories whose path
 * `isExpected` accepts: a link, a device or an unknown path could reach outside the directory
 * it is restored into. Returns the paths left out, for the caller to refuse the archive by.
 */
export async function extractExpectedEntries(archive: string, staging: string, isExpected: (path: string) => boolean): Promise<string[]> {
  const refused: string[] = [];
  try {
    await extract({
      file: archive,
      cwd: staging,
      strict: true,
      filter: (path, entry) => {
        const type = 'type' in entry ? entry.type : undefined;
        const ok = isExpected(path) && (type === 'File' || type === 'Directory');
        if (!ok) refused.push(path);
        return ok;
      },
    });
  } catch (error) {
    throw new CliError(`--archive: cannot unpack ${archive}: ${(error as Error).message}`);
  }
  return refused;
}
