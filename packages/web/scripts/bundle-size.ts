/**
 * The initial JavaScript of the built client, gzipped: the entry chunk and every chunk it imports
 * statically (what a browser must fetch before the first render), read from Vite's manifest.
 * Run after `vite build`; prints the figure and fails above the budget.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/** The budget the issue sets for the initial load. */
export const BUDGET_BYTES = 250 * 1024;

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
}

export interface BundleSize {
  files: string[];
  rawBytes: number;
  gzipBytes: number;
}

export function initialJsSize(distDir: string): BundleSize {
  const manifest = JSON.parse(readFileSync(join(distDir, '.vite', 'manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const imported of manifest[key]?.imports ?? []) visit(imported);
  };
  for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) visit(key);
  const files = [...seen].map((key) => manifest[key]!.file).filter((file) => file.endsWith('.js'));
  let rawBytes = 0;
  let gzipBytes = 0;
  for (const file of files) {
    const bytes = readFileSync(join(distDir, file));
    rawBytes += bytes.length;
    gzipBytes += gzipSync(bytes, { level: 9 }).length;
  }
  return { files, rawBytes, gzipBytes };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const dist = process.argv[2] ?? join(fileURLToPath(new URL('..', import.meta.url)), 'dist');
  const size = initialJsSize(dist);
  const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
  console.log(`initial JS: ${kib(size.gzipBytes)} gzip (${kib(size.rawBytes)} raw) in ${size.files.length} file(s); budget ${kib(BUDGET_BYTES)} gzip`);
  if (size.gzipBytes > BUDGET_BYTES) {
    console.error('initial JS is over budget');
    process.exit(1);
  }
}
