/**
 * The CPU cost of validating GET /messages' parameters (validateInput of GetMessagesParams), in
 * process: the history figure's request as a transport hands it over (form text, the narrow as
 * JSON) and as an in-process caller passes it (typed values). Prints CPU µs per validation.
 *
 *   node --import tsx bench/profile-validate.ts
 *   BENCH_CPU_PROF=/tmp/validate.cpuprofile node --import tsx bench/profile-validate.ts
 */
import { Session } from 'node:inspector/promises';
import { writeFileSync } from 'node:fs';
import { GetMessagesParams } from '../packages/core/src/schemas/messages.js';
import { validateInput } from '../packages/core/src/schemas/validate.js';

const rounds = Number(process.env.BENCH_ROUNDS ?? 50_000);
const narrow = (i: number) => [
  { operator: 'channel', operand: 10 + (i % 20) },
  { operator: 'topic', operand: `topic ${i % 10}` },
];
const inputs: Record<string, (i: number) => unknown> = {
  served: (i) => ({ anchor: 'newest', num_before: '50', num_after: '0', narrow: JSON.stringify(narrow(i)) }),
  'in-process': (i) => ({ anchor: 'newest', num_before: 50, num_after: 0, narrow: narrow(i) }),
};

const profiler = process.env.BENCH_CPU_PROF ? new Session() : undefined;
if (profiler) {
  profiler.connect();
  await profiler.post('Profiler.enable');
  await profiler.post('Profiler.start');
}
for (const [name, make] of Object.entries(inputs)) {
  // Inputs made beforehand: only validation is timed.
  const made = Array.from({ length: 1000 }, (_, i) => make(i));
  for (let i = 0; i < rounds; i++) validateInput(GetMessagesParams, made[i % 1000]);
  const cpu = process.cpuUsage();
  for (let i = 0; i < rounds; i++) {
    if (validateInput(GetMessagesParams, made[i % 1000]).isErr()) throw new Error(`${name}: refused`);
  }
  const used = process.cpuUsage(cpu);
  console.log(`${name}: ${((used.user + used.system) / rounds).toFixed(2)} µs CPU per validation`);
}
if (profiler) {
  const { profile } = await profiler.post('Profiler.stop');
  writeFileSync(process.env.BENCH_CPU_PROF!, JSON.stringify(profile));
  profiler.disconnect();
}
