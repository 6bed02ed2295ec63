/**
 * At most one notification per kind of trouble: a kind is announced once and not again until everything has
 * recovered (every list loaded without error), however many polls fail meanwhile.
 */
export class NotificationGate {
  private readonly announced = new Set<string>();

  /** True the first time `kind` is seen since the last recovery. */
  shouldNotify(kind: string): boolean {
    if (this.announced.has(kind)) return false;
    this.announced.add(kind);
    return true;
  }

  recovered(): void {
    this.announced.clear();
  }
}
