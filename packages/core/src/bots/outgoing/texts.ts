/** Reading a webhook's answer, and the owner's failure notice, with the reference's rules and texts. */
import type { DeliveryJob } from './job.js';

/** Python's str(): how the reference turns a non-string `content` into message text. */
function pythonStr(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/**
 * The message content a successful (2xx) answer asks for, or the error that makes it a failure
 * (process_success_response). Nothing to post: no `content`, a blank one, `response_not_required`,
 * or the old botserver's `""`.
 */
export function answerContent(body: string, slack: boolean): { content?: string; error?: string } {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return { error: 'Invalid JSON in response' };
  }
  if (json === '') return {};
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return { error: 'Invalid response format' };
  const answer = json as Record<string, unknown>;
  let content: string | undefined;
  if (slack) {
    if ('text' in answer) content = pythonStr(answer.text);
  } else if (answer.response_not_required) {
    return {};
  } else if ('response_string' in answer) {
    content = pythonStr(answer.response_string);
  } else if ('content' in answer) {
    content = pythonStr(answer.content);
  }
  return content === undefined || content.trim() === '' ? {} : { content };
}

/** Python's repr() of a response body (bytes as b'…'), as the reference quotes it to the owner. */
export function pythonRepr(text: string, bytes: boolean): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  const escaped = text
    .replaceAll('\\', '\\\\')
    .replaceAll(quote, `\\${quote}`)
    .replaceAll('\n', '\\n')
    .replaceAll('\r', '\\r')
    .replaceAll('\t', '\\t');
  return `${bytes ? 'b' : ''}${quote}${escaped}${quote}`;
}

export interface NoticeDetails {
  status?: number;
  failure?: string;
  exception?: { name: string; message: string };
  /** The response body; `bytes` when the reference quotes it as bytes (a non-2xx answer). */
  payload?: { text: string; bytes: boolean };
}

/** notify_bot_owner's message: which message, and what went wrong with the webhook. */
export function ownerNotice(job: DeliveryJob, botName: string, details: NoticeDetails): string {
  let text = `[A message](${job.messageUrl}) to your bot @_**${botName}** triggered an outgoing webhook.`;
  if (details.exception) {
    text += `\nWhen trying to send a request to the webhook service, an exception of type ${details.exception.name} occurred:\n\`\`\`\n${details.exception.message}\n\`\`\``;
  } else if (details.failure) {
    text += `\n${details.failure}`;
  } else if (details.status === 407) {
    text += '\nThe URL configured for the webhook is for a private or disallowed network.';
  } else if (details.status) {
    text += `\nThe webhook got a response with status code *${details.status}*.`;
  }
  // An empty body is no payload (the reference tests the body's truth).
  if (details.payload?.text) {
    text += `\nThe response contains the following payload:\n\`\`\`\n${pythonRepr(details.payload.text, details.payload.bytes)}\n\`\`\``;
  }
  return text;
}
