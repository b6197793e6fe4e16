import { type OperatorMessageAddress, sendMessageAsOperator } from '@teamchat/core';
import { withInstallation } from '../admin/context.js';
import { jsonOption, REALM_OPTIONS } from '../admin/options.js';
import { selectRealm } from '../admin/realm.js';
import { defineCommand, type OptionTable, type OptionValues, option } from '../command-spec.js';
import { CliError } from '../data-dir.js';
import { orFail, printJson } from '../output.js';

const emailList = (raw: string) =>
  raw
    .split(',')
    .map((email) => email.trim())
    .filter((email) => email !== '');

const options = {
  ...REALM_OPTIONS,
  sender: option({ value: 'EMAIL', description: 'send as this user or bot', defaultText: "the realm's Notification Bot" }),
  channel: option({ value: 'NAME', description: 'the channel to post in (with --topic)' }),
  topic: option({ value: 'TOPIC', description: "the channel message's topic" }),
  to: option({ value: 'EMAILS', description: 'a direct message to these users, comma-separated (instead of --channel)', parse: emailList }),
  content: option({ value: 'TEXT', description: 'the message (Markdown)', required: true }),
  json: jsonOption,
} satisfies OptionTable;

export const sendMessageCommand = defineCommand({
  name: 'send-message',
  summary: 'send a message as the Notification Bot or a user, to a channel topic or as a direct message',
  description:
    "Sends a message to a channel's topic (--channel and --topic) or a direct message (--to). From the realm's Notification Bot it may go to any channel, as the server's own notices do; from a user (--sender) it goes through the same checks as the user's own request.",
  options,
  run: sendMessage,
});

async function sendMessage(values: OptionValues<typeof options>): Promise<void> {
  const to = address(values);
  const sent = await withInstallation(values, async (ctx) =>
    orFail(await sendMessageAsOperator(ctx, await selectRealm(ctx, values.realm), { to, content: values.content, senderEmail: values.sender })),
  );
  if (values.json) return printJson({ id: sent.id });
  process.stdout.write(`Sent message ${sent.id}\n`);
}

function address(values: OptionValues<typeof options>): OperatorMessageAddress {
  if (values.channel !== undefined && values.to !== undefined) throw new CliError('--channel and --to exclude each other: a channel message or a direct message');
  if (values.to !== undefined) {
    if (values.topic !== undefined) throw new CliError('--topic goes with --channel, not with --to');
    if (values.to.length === 0) throw new CliError('--to names no user');
    return { emails: values.to };
  }
  if (values.channel === undefined) throw new CliError('--channel (with --topic) or --to is required');
  if (values.topic === undefined) throw new CliError('--topic is required with --channel');
  return { channel: values.channel, topic: values.topic };
}
