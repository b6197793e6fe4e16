/**
 * Event queues as a client holds them: registered through POST /register (message events
 * only), then long-polled through GET /events from the last event ID seen.
 */
import type { Agent } from 'node:http';
import { type Answer, agentFor, api, send } from './loopback-client.js';
import type { Credentials } from './seed-world.js';

export interface Queue {
  credentials: Credentials;
  queueId: string;
  lastEventId: number;
}

/** What a queue listens to: message events only (the fan-out), or every event type as a full client registers (the memory figure). */
export type Listening = 'messages' | 'everything';

/**
 * Registers one queue per user, `concurrency` registrations at a time. Only the realm section
 * of the initial state is fetched: what a queue keeps does not depend on it, and fetching
 * 1,000 users' state a thousand times would dominate the run.
 */
export async function registerQueues(url: string, users: readonly Credentials[], listening: Listening, concurrency = 8): Promise<Queue[]> {
  const form: Record<string, string> = { fetch_event_types: '["realm"]' };
  if (listening === 'messages') form.event_types = '["message"]';
  const agent = agentFor(concurrency);
  const queues: Queue[] = new Array(users.length);
  let next = 0;
  const worker = async () => {
    while (next < users.length) {
      const i = next++;
      const envelope = await api(url, agent, {
        method: 'POST',
        path: '/api/v1/register',
        credentials: users[i],
        form,
      });
      queues[i] = { credentials: users[i]!, queueId: String(envelope.queue_id), lastEventId: Number(envelope.last_event_id) };
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  agent.destroy();
  return queues;
}

/**
 * One long poll of `queue`; the answer's events move the queue's last event ID on. `written` is
 * called once the request has been written to a connected socket (see `Call.written`).
 */
export async function poll(url: string, agent: Agent, queue: Queue, written?: () => void): Promise<Answer> {
  const path = `/api/v1/events?queue_id=${encodeURIComponent(queue.queueId)}&last_event_id=${queue.lastEventId}`;
  const answer = await send(url, agent, { method: 'GET', path, credentials: queue.credentials, written });
  if (answer.status !== 200) throw new Error(`GET /events: ${answer.status} ${answer.body.toString('utf8')}`);
  const events = (JSON.parse(answer.body.toString('utf8')) as { events: { id: number }[] }).events;
  for (const event of events) queue.lastEventId = Math.max(queue.lastEventId, event.id);
  return answer;
}
