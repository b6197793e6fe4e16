/**
 * The rules of the automatic topic visibility settings (the reference's lib/message.py
 * visibility_policy_for_send_message and friends), as pure functions: which policy an action
 * gives the acting user's topic, or none. The actions that apply them live in
 * actions/automatic-topic-policy.ts.
 */
import { VISIBILITY_POLICY, type VisibilityPolicy } from '../storage/types.js';

/**
 * Values of automatically_follow_topics_policy and
 * automatically_unmute_topics_in_muted_streams_policy (the reference's numbering: participating
 * is sending, reacting or voting; initiating is sending a topic's first message).
 */
export const AUTOMATIC_POLICY = { onParticipation: 1, onSend: 2, onInitiation: 3, never: 4 } as const;

/** The two settings of the acting user that these rules read. */
export interface AutomaticSettings {
  follow: number;
  unmuteInMutedChannels: number;
}

/** Whether neither setting can ever change anything (lets callers skip the lookups). */
export const neverAutomatic = (s: AutomaticSettings) => s.follow === AUTOMATIC_POLICY.never && s.unmuteInMutedChannels === AUTOMATIC_POLICY.never;

/**
 * The policy one kind of action asks for: followed when the follow setting names it, otherwise
 * unmuted when the unmute setting names it and the user muted the channel.
 */
function policyFor(trigger: number, s: AutomaticSettings, channelMuted: boolean): VisibilityPolicy | undefined {
  if (s.follow === trigger) return VISIBILITY_POLICY.followed;
  if (channelMuted && s.unmuteInMutedChannels === trigger) return VISIBILITY_POLICY.unmuted;
  return undefined;
}

/**
 * The policy a reaction (participation) gives the reactor's topic, or undefined when it
 * changes nothing: these settings only ever make a topic more visible, so a followed topic
 * stays followed.
 */
export function policyForParticipation(s: AutomaticSettings, channelMuted: boolean, current: VisibilityPolicy): VisibilityPolicy | undefined {
  const wanted = policyFor(AUTOMATIC_POLICY.onParticipation, s, channelMuted);
  if (wanted === undefined || wanted === current || current === VISIBILITY_POLICY.followed) return undefined;
  return wanted;
}

/**
 * The policy sending a message gives the sender's topic, or undefined. Sending is both
 * participating and sending, and initiating too when the sender could see no earlier message
 * in the topic (`initiates`); following wins over unmuting whichever setting asks for it.
 * `initiates` is only consulted for a topic without a policy, as the reference does.
 */
export async function policyForSend(
  s: AutomaticSettings,
  channelMuted: boolean,
  current: VisibilityPolicy,
  initiates: () => Promise<boolean>,
): Promise<VisibilityPolicy | undefined> {
  if (current === VISIBILITY_POLICY.followed) return undefined;
  const asked = [policyFor(AUTOMATIC_POLICY.onParticipation, s, channelMuted), policyFor(AUTOMATIC_POLICY.onSend, s, channelMuted)];
  if (asked.includes(VISIBILITY_POLICY.followed)) return VISIBILITY_POLICY.followed;
  const unmuted = asked.includes(VISIBILITY_POLICY.unmuted) ? VISIBILITY_POLICY.unmuted : undefined;
  // A topic with a policy cannot be one the sender starts.
  if (current !== VISIBILITY_POLICY.inherit) return unmuted === current ? undefined : unmuted;
  const initiation = policyFor(AUTOMATIC_POLICY.onInitiation, s, channelMuted);
  if (initiation === undefined || !(await initiates())) return unmuted;
  return initiation;
}

/**
 * The policy a move gives the sender of the moved message when that message becomes the first
 * of its new topic (the reference's apply_automatic_unmute_follow_topics_policy): only the
 * "on initiation" value counts, following wins over unmuting, and the unmute setting needs a
 * muted channel. An explicitly muted topic is overridden, as in the reference; a followed one
 * is never turned into merely unmuted (these settings only ever make a topic more visible).
 */
export function policyForMovedInitiation(s: AutomaticSettings, channelMuted: boolean, current: VisibilityPolicy): VisibilityPolicy | undefined {
  const wanted = policyFor(AUTOMATIC_POLICY.onInitiation, s, channelMuted);
  if (wanted === undefined || wanted === current || current === VISIBILITY_POLICY.followed) return undefined;
  return wanted;
}
