/** Input of the code playground endpoints (openapi /realm/playgrounds). */
import { type } from './known-structs.js';
import { PathInt, Text } from './wire.js';

/** The reference's RealmPlayground.MAX_PYGMENTS_LANGUAGE_LENGTH. */
export const MAX_PYGMENTS_LANGUAGE_LENGTH = 40;
/** Names and templates are unbounded text fields in the reference; these bounds only keep work small. */
const MAX_NAME_LENGTH = 200;
const MAX_URL_TEMPLATE_LENGTH = 2000;

/** POST /realm/playgrounds. */
export const AddPlaygroundParams = type({
  name: Text({ max: MAX_NAME_LENGTH }),
  pygments_language: Text({ max: MAX_PYGMENTS_LANGUAGE_LENGTH }),
  url_template: Text({ max: MAX_URL_TEMPLATE_LENGTH }),
});

/** DELETE /realm/playgrounds/{playground_id}. */
export const RemovePlaygroundParams = type({ playground_id: PathInt });
