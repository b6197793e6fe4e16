import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm'],
  // Browsers and Node 20+: nothing Node-specific is used.
  platform: 'neutral',
  target: 'es2022',
  clean: true,
  // Declarations: scripts/bundle-types.ts, one file with the core types it uses inlined.
  dts: false,
});
