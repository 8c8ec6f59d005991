import type { z } from "zod";
import type { AppendResult, EventStore, ExpectedStreamVersion, NewEvent, StoredEvent } from "./port.ts";

/**
 * The event catalogue: a zod schema per event type and version. Appends of unknown or invalid
 * events are refused; reading an event stored at an older version upcasts it to the newest.
 */
export type EventDefinition<T extends string = string, S extends z.ZodType = z.ZodType> = {
  type: T;
  version: number;
  schema: S;
  /** Turns data of version - 1 into this version's data. Required for version > 1. */
  upcastFrom?: (previous: Record<string, unknown>) => Record<string, unknown>;
};

/**
 * An event of a definition as readers see it (projections, deciders' evolve, handlers): the stored
 * envelope, with `type` and `data` typed by the definition's schema. Reads come out of the catalogue
 * upcast to the newest version, so give the newest definition of a type.
 */
export type EventOf<D> = D extends EventDefinition<infer T, infer S> ? Omit<StoredEvent, "type" | "data"> & { type: T; data: z.output<S> } : never;

/** An event as a decider emits it (before the envelope), typed by its definition's schema. */
export type DecidedEventOf<D> = D extends EventDefinition<infer T, infer S> ? { type: T; data: z.output<S> } : never;

/**
 * A type guard for the events of these definitions: true when the event's type is one of theirs. Events
 * read through the catalogue are validated and upcast, so their data has the newest definition's shape
 * (give the newest definition of each type).
 */
export function eventIn<const D extends readonly EventDefinition[]>(definitions: D): (event: StoredEvent) => event is StoredEvent & EventOf<D[number]> {
  const types = new Set(definitions.map((d) => d.type));
  return (event: StoredEvent): event is StoredEvent & EventOf<D[number]> => types.has(event.type);
}

export function defineEvent<T extends string, S extends z.ZodType>(
  type: T,
  version: number,
  schema: S,
  upcastFrom?: (previous: Record<string, unknown>) => Record<string, unknown>,
): EventDefinition<T, S> {
  return { type, version, schema, upcastFrom };
}

export class UnknownEventTypeError extends Error {
  constructor(readonly eventType: string, readonly schemaVersion: number) {
    super(`Unknown event type ${eventType} v${schemaVersion}`);
    this.name = "UnknownEventTypeError";
  }
}

export class InvalidEventError extends Error {
  constructor(readonly eventType: string, readonly issues: { path: string; message: string }[]) {
    super(`Invalid ${eventType} event: ${issues.map((i) => `${i.path || "(root)"}: ${i.message}`).join("; ")}`);
    this.name = "InvalidEventError";
  }
}

export type Catalogue = {
  types(): string[];
  latestVersion(type: string): number;
  /** Validates data for (type, version); returns the parsed data or throws. */
  validate(type: string, version: number, data: unknown): Record<string, unknown>;
  /** Returns the event at the newest version of its type. */
  upcast<E extends { type: string; schemaVersion: number; data: Record<string, unknown> }>(event: E): E;
  definitions(): EventDefinition[];
};

export function createCatalogue(definitions: readonly EventDefinition[]): Catalogue {
  const byType = new Map<string, Map<number, EventDefinition>>();
  for (const def of definitions) {
    const versions = byType.get(def.type) ?? new Map<number, EventDefinition>();
    if (versions.has(def.version)) throw new Error(`Duplicate event definition ${def.type} v${def.version}`);
    versions.set(def.version, def);
    byType.set(def.type, versions);
  }
  for (const [type, versions] of byType) {
    for (const version of versions.keys()) {
      if (version > 1 && (!versions.has(version - 1) || !versions.get(version)!.upcastFrom)) {
        throw new Error(`${type} v${version} needs v${version - 1} and an upcaster`);
      }
    }
  }

  const definition = (type: string, version: number) => {
    const def = byType.get(type)?.get(version);
    if (!def) throw new UnknownEventTypeError(type, version);
    return def;
  };
  const latestVersion = (type: string) => {
    const versions = byType.get(type);
    if (!versions) throw new UnknownEventTypeError(type, 0);
    return Math.max(...versions.keys());
  };

  return {
    types: () => [...byType.keys()].sort(),
    latestVersion,
    definitions: () => [...definitions],
    validate(type, version, data) {
      const parsed = definition(type, version).schema.safeParse(data);
      if (!parsed.success) {
        throw new InvalidEventError(
          type,
          parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message })),
        );
      }
      return parsed.data as Record<string, unknown>;
    },
    upcast(event) {
      const latest = latestVersion(event.type);
      let data = event.data;
      for (let v = event.schemaVersion + 1; v <= latest; v++) {
        data = definition(event.type, v).upcastFrom!(data);
      }
      return latest === event.schemaVersion ? event : { ...event, schemaVersion: latest, data };
    },
  };
}

/** Decorates an event store so that only catalogued, valid events get in, and reads come out upcast. */
export function createCataloguedEventStore(store: EventStore, catalogue: Catalogue): EventStore {
  const upcast = (e: StoredEvent) => catalogue.upcast(e);
  return {
    ...store,
    async appendToStream(
      streamName: string,
      events: NewEvent[],
      options?: { expectedStreamVersion?: ExpectedStreamVersion },
    ): Promise<AppendResult> {
      const checked = events.map((e) => ({ ...e, data: catalogue.validate(e.type, e.schemaVersion, e.data) }));
      return store.appendToStream(streamName, checked, options);
    },
    async readStream(streamName, options) {
      const result = await store.readStream(streamName, options);
      return { ...result, events: result.events.map(upcast) };
    },
    async readAll(options) {
      return (await store.readAll(options)).map(upcast);
    },
    async readAllBackwards(options) {
      return (await store.readAllBackwards(options)).map(upcast);
    },
    subscribeToAll(options) {
      return store.subscribeToAll({ ...options, onEvent: (e) => options.onEvent(upcast(e)) });
    },
  };
}
