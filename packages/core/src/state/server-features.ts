/**
 * Sections for features this server does not have, answered as the reference answers a realm
 * that has none of them: clients that ask (or fetch everything) get the key with an empty
 * value rather than a missing key, which the official clients treat as a failed load.
 */
import { defineSection } from './sections.js';

/** Full-text search here ignores no words (FTS5 without a stop list), so clients need not either. */
export const stopWordsSection = defineSection({ key: 'stop_words', async fetch() { return { stop_words: [] }; } });

/** No default channel groups can be configured (default channels themselves are `default_streams`). */
export const defaultStreamGroupsSection = defineSection({ key: 'default_stream_groups', async fetch() { return { realm_default_stream_groups: [] }; } });

/** No onboarding steps or tour video: clients show no hints. */
export const onboardingStepsSection = defineSection({
  key: 'onboarding_steps',
  async fetch() {
    return { onboarding_steps: [], navigation_tour_video_url: null };
  },
});

/** No embedded bots or incoming-webhook integrations ship with this server. */
export const realmEmbeddedBotsSection = defineSection({ key: 'realm_embedded_bots', async fetch() { return { realm_embedded_bots: [] }; } });
export const realmIncomingWebhookBotsSection = defineSection({ key: 'realm_incoming_webhook_bots', async fetch() { return { realm_incoming_webhook_bots: [] }; } });

/** No billing: no sponsorship request can be pending. */
export const realmBillingSection = defineSection({
  key: 'realm_billing',
  async fetch() {
    return { realm_billing: { has_pending_sponsorship_request: false } };
  },
});

/** No GIPHY integration: the reference sends "" when it has no key. */
export const giphySection = defineSection({ key: 'giphy', async fetch() { return { giphy_api_key: '' }; } });
