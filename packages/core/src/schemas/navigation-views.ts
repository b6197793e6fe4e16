/** Input of the navigation-view endpoints (API.md 2.8, 4.18; FACTS.md 6.8). */
import { optional, type } from './known-structs.js';
import { JsonBool, Text } from './wire.js';

/** The reference's stripped, non-blank strings ("fragment cannot be blank"); the action strips them. */
const NonBlank = Text({ nonBlank: true });

export const AddNavigationViewParams = type({ fragment: NonBlank, is_pinned: JsonBool, name: optional(NonBlank) });

/** The fragment comes from the path (it may contain slashes); both body fields are optional. */
export const EditNavigationViewParams = type({ fragment: NonBlank, is_pinned: optional(JsonBool), name: optional(NonBlank) });

export const RemoveNavigationViewParams = type({ fragment: NonBlank });
