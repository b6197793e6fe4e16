/**
 * Orders this process's commits and read snapshots as single steps (types.ts, `Storage.read`):
 * a COMMIT and a snapshot-taking statement are never in flight at once. Snapshots may overlap
 * each other; a commit waits for the snapshots in flight and holds new ones back until its
 * after-commit callbacks have run. So a read's snapshot holds a commit of this process exactly
 * when that commit's callbacks ran before the read's callback was called.
 */
export class CommitOrder {
  private snapshots = 0;
  private committing = false;
  private readonly waiters: (() => void)[] = [];

  /** Waits until no commit is in flight, then counts a snapshot in flight. */
  async beginSnapshot(): Promise<void> {
    while (this.committing) await this.wait();
    this.snapshots++;
  }

  endSnapshot(): void {
    this.snapshots--;
    this.wake();
  }

  /** Waits until no snapshot (and no other commit) is in flight, then marks a commit in flight. */
  async beginCommit(): Promise<void> {
    while (this.committing || this.snapshots > 0) await this.wait();
    this.committing = true;
  }

  /** Ends the commit once its after-commit callbacks have run. */
  endCommit(): void {
    this.committing = false;
    this.wake();
  }

  private wait(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  private wake(): void {
    for (const resolve of this.waiters.splice(0)) resolve();
  }
}
