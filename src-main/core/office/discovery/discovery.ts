/** An endpoint where a desk may listen: a discovery path found it; the desk's heartbeat confirms it. */
export interface Endpoint {
  address: string;
  port: number;
}

/** One way desks find each other (docs/office.md, "Discovery"). Each says whether it works here. */
export interface Discovery {
  readonly name: 'mdns' | 'local' | 'manual';
  /** 'on' once started; 'unavailable' with `detail` when this machine refused it (no multicast, no folder). */
  readonly state: 'on' | 'unavailable' | 'starting';
  readonly detail: string | null;
  start(found: (e: Endpoint) => void): Promise<void>;
  close(): Promise<void>;
}
