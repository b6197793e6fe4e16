/**
 * Input of the draft endpoints (API.md 2.4, FACTS.md 6.2). The reference's draft model is strict:
 * an unknown key is refused (`Argument "x" at drafts[0]["x"] is unexpected`).
 */
import { define, object, type } from './known-structs.js';
import { array, Int, json, nullable, OneOf, optional, PathInt, Str, Text } from './wire.js';

/** A JSON number (the reference's `int | float`). */
const Num = define<number>('number', (v) => (typeof v === 'number' && Number.isFinite(v)) || '{var} is not a number');

export const DraftObject = object({
  type: OneOf(['', 'stream', 'private'] as const),
  to: array(Int),
  topic: Str,
  content: Text({ nonBlank: true }),
  timestamp: optional(nullable(Num)),
});

export const CreateDraftsParams = type({ drafts: json(array(DraftObject)) });

export const EditDraftParams = type({ draft_id: PathInt, draft: json(DraftObject) });

export const DeleteDraftParams = type({ draft_id: PathInt });
