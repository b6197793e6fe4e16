/** Input of the linkifier endpoints (openapi /realm/linkifiers, /realm/filters). */
import { type } from './known-structs.js';
import { Int, List, nullable, optional, PathInt, Str } from './wire.js';

export const GetLinkifiersParams = type({});

const LINKIFIER_FIELDS = {
  pattern: Str,
  url_template: Str,
  example_input: optional(nullable(Str)),
  reverse_template: optional(nullable(Str)),
  alternative_url_templates: optional(List(Str)),
};

/** POST /realm/filters. */
export const AddLinkifierParams = type(LINKIFIER_FIELDS);

/** PATCH /realm/filters/{filter_id}: the same fields, pattern and url_template again required. */
export const UpdateLinkifierParams = type({ filter_id: PathInt, ...LINKIFIER_FIELDS });

/** DELETE /realm/filters/{filter_id}. */
export const RemoveLinkifierParams = type({ filter_id: PathInt });

/** PATCH /realm/linkifiers. */
export const ReorderLinkifiersParams = type({ ordered_linkifier_ids: List(Int) });
