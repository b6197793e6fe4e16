/**
 * Run by hidden-classes.test.ts as `node --allow-natives-syntax --import tsx probe.ts`: prints
 * a JSON object saying, for each hot-path object, whether two made the same way on different
 * calls share one hidden class (V8's %HaveSameMap). The natives syntax is not TypeScript, so
 * the checks are compiled with `new Function` at run time.
 */
import { copyOf, extend } from '../../../packages/core/src/objects.js';
import { GetMessagesParams } from '../../../packages/core/src/schemas/messages.js';
import { validateInput } from '../../../packages/core/src/schemas/validate.js';

const sameMap = new Function('a', 'b', 'return %HaveSameMap(a, b);') as (a: object, b: object) => boolean;

const base = () => ({ realm: { id: 1 }, users: new Map(), names: ['a'], count: 2, flag: true });
const params = () => validateInput(GetMessagesParams, { anchor: 'newest', num_before: '50', num_after: '0', narrow: '[]' });

/** Whether the objects `make` returns share one hidden class, once its call sites have warmed up (as on a server). */
function shared(make: () => object): boolean {
  for (let i = 0; i < 1000; i++) make();
  return sameMap(make(), make());
}

const results = {
  extend: shared(() => extend(base(), { applyMarkdown: true, clientGravatar: false })),
  copyOfThenAdd: shared(() => Object.assign(copyOf(base()), { added: 1 })),
  coercedParams: shared(() => params()._unsafeUnwrap() as object),
};
console.log(JSON.stringify(results));
