/** Input of the saved-snippet endpoints (the reference's views/saved_snippets.py). */
import { optional, type } from './known-structs.js';
import { PathInt, Text } from './wire.js';

/** SavedSnippet.MAX_TITLE_LENGTH in the reference. */
export const SAVED_SNIPPET_TITLE_MAX = 60;

/** Both fields are stripped by the action and must not be blank; content's bound is the server's max_message_length. */
const Title = Text({ nonBlank: true, max: SAVED_SNIPPET_TITLE_MAX });
const Content = Text({ nonBlank: true });

export const CreateSavedSnippetParams = type({ title: Title, content: Content });
export const EditSavedSnippetParams = type({ saved_snippet_id: PathInt, title: optional(Title), content: optional(Content) });
export const DeleteSavedSnippetParams = type({ saved_snippet_id: PathInt });
