/**
 * Writes src/generated/endpoints.ts from the server's route table. Run it (`pnpm generate` at the
 * root) after changing a route or an operation's parameters, and commit
 * the result; tests/client/generated-endpoints.test.ts fails while the file is stale.
 * The package script points tsx at the root tsconfig, whose paths resolve @teamchat/core and
 * @teamchat/http-adapter to their sources, so the table never comes from a stale build.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderEndpoints } from './endpoint-table.js';

export const ENDPOINTS_FILE = fileURLToPath(new URL('../src/generated/endpoints.ts', import.meta.url));

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(ENDPOINTS_FILE, renderEndpoints());
  console.log(`wrote ${ENDPOINTS_FILE}`);
}
