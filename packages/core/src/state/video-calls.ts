import { defineSection } from './sections.js';

/** The `video_calls` section (SHAPES.md 2.4, API.md 4.21): whether the user linked the provider; false for spectators and without a provider. */
export const videoCallsSection = defineSection({
  key: 'video_calls',
  eventTypes: ['has_videoprovider_token'],
  async fetch(ctx, _tx, { user }) {
    const provider = ctx.videoCalls;
    return { has_videoprovider_token: user !== null && provider != null && (await provider.hasToken(user)) };
  },
});
