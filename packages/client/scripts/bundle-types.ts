/**
 * Writes dist/index.d.ts as one self-contained declaration file: the client's own types plus
 * every type they use from @teamchat/core (and from its libraries), inlined, so that a
 * TypeScript user of @teamchat/client needs no @teamchat/core installed. tsup's own `dts`
 * cannot do this here: it keeps workspace packages and tsconfig `paths` external.
 */
import { fileURLToPath } from 'node:url';
import { rollup } from 'rollup';
import { dts } from 'rollup-plugin-dts';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const client = fileURLToPath(new URL('..', import.meta.url));

const bundle = await rollup({
  input: `${client}src/index.ts`,
  plugins: [
    dts({
      // Inline what node_modules provides too (superstruct, neverthrow): nothing stays an import.
      respectExternal: true,
      compilerOptions: {
        baseUrl: root,
        // The core's sources, as in the workspace: its declarations are emitted from them.
        paths: { '@teamchat/core': ['packages/core/src/index.ts'] },
        strict: true,
        skipLibCheck: true,
        types: [],
      },
    }),
  ],
});
await bundle.write({ file: `${client}dist/index.d.ts`, format: 'es' });
await bundle.close();
