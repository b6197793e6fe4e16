/**
 * What core tells a metrics exporter as it works. Core keeps no counters of its own and loads no
 * metrics library: an exporter (the HTTP adapter's prom-client registry) implements this and
 * passes it to `createContext({ metrics })`. Without one, nothing is measured and nothing is paid.
 * Numbers an exporter can read when it is scraped (event queues, waiting long-polls, the
 * scheduler's backlog) are not pushed here: see `queueMetrics` and `countSchedulerBacklog`.
 */
export interface MetricsObserver {
  /** A message was stored and announced (after its commit): a channel or a direct message. */
  messageSent(kind: 'stream' | 'private'): void;
  /**
   * A write transaction settled. `seconds` runs from the call to the settlement (waiting for the
   * write lock included); `commitSeconds` from the end of its callback to its durable commit,
   * present only when it committed (with group commit, the batch's later callbacks are in it).
   */
  storageTransaction(seconds: number, commitSeconds: number | undefined): void;
  /** A read settled, `seconds` from the call. */
  storageRead(seconds: number): void;
}
