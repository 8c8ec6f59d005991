/**
 * PROTOCOL STAND-IN for EventStoreDB. NOT EventStoreDB.
 *
 * An in-process gRPC server built from the service definitions that @eventstore/db-client
 * ships (generated/*_grpc_pb.js), implementing just enough of the Streams service for the
 * client to talk to it honestly over the wire: Append (client streaming), Read of a stream and
 * of $all (both directions, counts, positions, event-type/stream filters) and $all
 * subscriptions (confirmation, catch-up, CaughtUp, live events), plus
 * ServerFeatures.GetSupportedMethods. It exists so CI exercises the adapter's wire path
 * (request building, response decoding, error mapping, positions, ids); the behaviour of a
 * real server is checked by test/eventstore/eventstoredb-real.int.spec.ts when
 * LOUPE_TEST_ESDB_URL is set.
 *
 * Modelled server behaviour (from EventStoreDB's sources): every appended event is its own
 * committed record whose $all position is (commit = prepare = its log position); log positions
 * grow by the record's size, so they are large and not contiguous; forward $all reads from a
 * position include the event at that position, backward reads return events before it; a
 * subscription delivers events after its position. The log also gets system events
 * ($-prefixed stream and type) at start and after every few appends, as a real server's
 * statistics/settings writes do, so the adapter's filtering is exercised. BatchAppend is not
 * implemented (and not advertised), so the client uses the Append call.
 */
import { createRequire } from "node:module";
import { randomUUID } from "node:crypto";
import * as grpc from "@grpc/grpc-js";
import { matchesExpectedVersion } from "../../src/eventstore/expected-version.ts";
import type { ExpectedStreamVersion } from "../../src/eventstore/port.ts";

type StreamsPb = typeof import("@eventstore/db-client/generated/streams_pb.js");
type SharedPb = typeof import("@eventstore/db-client/generated/shared_pb.js");
type FeaturesPb = typeof import("@eventstore/db-client/generated/serverfeatures_pb.js");
type StreamsGrpc = typeof import("@eventstore/db-client/generated/streams_grpc_pb.js");
type FeaturesGrpc = typeof import("@eventstore/db-client/generated/serverfeatures_grpc_pb.js");
type ReadReq = InstanceType<StreamsPb["ReadReq"]>;
type ReadResp = InstanceType<StreamsPb["ReadResp"]>;
type AppendReq = InstanceType<StreamsPb["AppendReq"]>;
type AppendResp = InstanceType<StreamsPb["AppendResp"]>;

// The generated modules are CommonJS that export through goog.object.extend, which ESM
// named-import detection cannot see; load them with require so the message classes are the
// very instances the service serializers check with instanceof.
const require = createRequire(import.meta.url);
const streamsPb = require("@eventstore/db-client/generated/streams_pb.js") as StreamsPb;
const sharedPb = require("@eventstore/db-client/generated/shared_pb.js") as SharedPb;
const featuresPb = require("@eventstore/db-client/generated/serverfeatures_pb.js") as FeaturesPb;
const streamsGrpc = require("@eventstore/db-client/generated/streams_grpc_pb.js") as StreamsGrpc;
const featuresGrpc = require("@eventstore/db-client/generated/serverfeatures_grpc_pb.js") as FeaturesGrpc;

type LogRecord = {
  streamName: string;
  revision: number;
  id: string;
  type: string;
  contentType: string;
  data: Uint8Array;
  customMetadata: Uint8Array;
  createdTicks: bigint;
  position: number;
};

export type EsdbStandIn = {
  connectionString: string;
  /** Number of records in the log, system events included. */
  recordCount(): number;
  stop(): Promise<void>;
};

const SYSTEM_EVENT_EVERY = 5;
const FIRST_LOG_POSITION = 1_000;

export async function startEsdbStandIn(): Promise<EsdbStandIn> {
  const log: LogRecord[] = [];
  const streams = new Map<string, LogRecord[]>();
  const eventIds = new Map<string, LogRecord>();
  const liveListeners = new Set<(record: LogRecord) => void>();
  let nextLogPosition = FIRST_LOG_POSITION;
  let appendCount = 0;

  function write(streamName: string, proposed: Omit<LogRecord, "streamName" | "revision" | "position" | "createdTicks">): LogRecord {
    const stream = streams.get(streamName) ?? [];
    const record: LogRecord = {
      ...proposed,
      streamName,
      revision: stream.length,
      position: nextLogPosition,
      createdTicks: BigInt(Date.now()) * 10_000n,
    };
    // A log record is a header plus its payload: positions are byte offsets, not counters.
    nextLogPosition += 120 + streamName.length + proposed.type.length + proposed.data.length + proposed.customMetadata.length;
    stream.push(record);
    streams.set(streamName, stream);
    log.push(record);
    eventIds.set(record.id, record);
    for (const listener of liveListeners) listener(record);
    return record;
  }

  function writeSystemEvent(): void {
    write("$stats-standin", {
      id: randomUUID(),
      type: "$statsCollected",
      contentType: "application/json",
      data: Buffer.from(JSON.stringify({ at: new Date().toISOString() })),
      customMetadata: new Uint8Array(),
    });
  }

  writeSystemEvent();
  write("$settings", {
    id: randomUUID(),
    type: "$settings",
    contentType: "application/json",
    data: Buffer.from("{}"),
    customMetadata: new Uint8Array(),
  });

  // ---- Append ----------------------------------------------------------------------------

  function handleAppend(messages: AppendReq[]): AppendResp {
    const [header, ...rest] = messages;
    const options = header?.getOptions();
    if (!options) throw Object.assign(new Error("Append without options"), { code: grpc.status.INVALID_ARGUMENT });
    const streamName = Buffer.from(options.getStreamIdentifier()?.getStreamName_asU8() ?? new Uint8Array()).toString("utf8");
    const expected: ExpectedStreamVersion = options.hasRevision()
      ? Number(options.getRevision())
      : options.hasNoStream()
        ? "no_stream"
        : options.hasStreamExists()
          ? "stream_exists"
          : "any";
    const proposed = rest.map((message) => {
      const proposedMessage = message.getProposedMessage();
      if (!proposedMessage) throw Object.assign(new Error("Expected a proposed message"), { code: grpc.status.INVALID_ARGUMENT });
      const metadata = proposedMessage.getMetadataMap();
      return {
        id: proposedMessage.getId()?.getString() ?? "",
        type: metadata.get("type") ?? "",
        contentType: metadata.get("content-type") ?? "application/octet-stream",
        data: proposedMessage.getData_asU8(),
        customMetadata: proposedMessage.getCustomMetadata_asU8(),
      };
    });
    const stream = streams.get(streamName) ?? [];
    const response = new streamsPb.AppendResp();

    // Idempotency as the server does it: the same event ids already written, in order, to
    // this stream make the append a no-op that reports the original write.
    const previous = proposed.map((event) => eventIds.get(event.id));
    const first = previous[0];
    if (
      first &&
      previous.every(
        (record, index) => record && record.streamName === streamName && record.revision === first.revision + index,
      )
    ) {
      const last = previous[previous.length - 1] as LogRecord;
      return successResponse(response, last.revision, last.position);
    }

    const current = stream.length - 1;
    if (!matchesExpectedVersion(expected, current)) {
      const wrong = new streamsPb.AppendResp.WrongExpectedVersion();
      if (current >= 0) wrong.setCurrentRevision(String(current));
      else wrong.setCurrentNoStream(new sharedPb.Empty());
      if (typeof expected === "number") wrong.setExpectedRevision(String(expected));
      else if (expected === "no_stream") wrong.setExpectedNoStream(new sharedPb.Empty());
      else if (expected === "stream_exists") wrong.setExpectedStreamExists(new sharedPb.Empty());
      else wrong.setExpectedAny(new sharedPb.Empty());
      response.setWrongExpectedVersion(wrong);
      return response;
    }
    let last: LogRecord | undefined;
    for (const event of proposed) last = write(streamName, event);
    appendCount++;
    if (appendCount % SYSTEM_EVENT_EVERY === 0) writeSystemEvent();
    return successResponse(response, last?.revision ?? current, last?.position ?? nextLogPosition);
  }

  function successResponse(response: AppendResp, revision: number, position: number): AppendResp {
    const success = new streamsPb.AppendResp.Success();
    if (revision >= 0) success.setCurrentRevision(String(revision));
    else success.setNoStream(new sharedPb.Empty());
    const grpcPosition = new streamsPb.AppendResp.Position();
    grpcPosition.setCommitPosition(String(position));
    grpcPosition.setPreparePosition(String(position));
    success.setPosition(grpcPosition);
    response.setSuccess(success);
    return response;
  }

  // ---- Read ------------------------------------------------------------------------------

  function toReadResp(record: LogRecord): ReadResp {
    const recorded = new streamsPb.ReadResp.ReadEvent.RecordedEvent();
    const id = new sharedPb.UUID();
    id.setString(record.id);
    recorded.setId(id);
    const identifier = new sharedPb.StreamIdentifier();
    identifier.setStreamName(Buffer.from(record.streamName, "utf8"));
    recorded.setStreamIdentifier(identifier);
    recorded.setStreamRevision(String(record.revision));
    recorded.setCommitPosition(String(record.position));
    recorded.setPreparePosition(String(record.position));
    const metadata = recorded.getMetadataMap();
    metadata.set("type", record.type);
    metadata.set("content-type", record.contentType);
    metadata.set("created", record.createdTicks.toString());
    recorded.setCustomMetadata(record.customMetadata);
    recorded.setData(record.data);
    const readEvent = new streamsPb.ReadResp.ReadEvent();
    readEvent.setEvent(recorded);
    readEvent.setCommitPosition(String(record.position));
    const response = new streamsPb.ReadResp();
    response.setEvent(readEvent);
    return response;
  }

  function makeFilter(options: InstanceType<StreamsPb["ReadReq"]["Options"]>): (record: LogRecord) => boolean {
    if (!options.hasFilter()) return () => true;
    const filter = options.getFilter();
    const expression = filter?.hasEventType() ? filter.getEventType() : filter?.getStreamIdentifier();
    const pick = (record: LogRecord) => (filter?.hasEventType() ? record.type : record.streamName);
    const regex = expression?.getRegex() ? new RegExp(expression.getRegex()) : undefined;
    const prefixes = expression?.getPrefixList() ?? [];
    return (record) => {
      const value = pick(record);
      if (regex && !regex.test(value)) return false;
      if (prefixes.length > 0 && !prefixes.some((prefix) => value.startsWith(prefix))) return false;
      return true;
    };
  }

  function handleRead(call: grpc.ServerWritableStream<ReadReq, ReadResp>): void {
    const options = call.request.getOptions();
    if (!options) {
      call.destroy(Object.assign(new Error("Read without options"), { code: grpc.status.INVALID_ARGUMENT }));
      return;
    }
    const backwards = options.getReadDirection() === streamsPb.ReadReq.Options.ReadDirection.BACKWARDS;
    const count = options.hasCount() ? Number(options.getCount()) : Infinity;
    const accept = makeFilter(options);

    if (options.hasStream()) {
      const streamOptions = options.getStream();
      const streamName = Buffer.from(streamOptions?.getStreamIdentifier()?.getStreamName_asU8() ?? new Uint8Array()).toString("utf8");
      const stream = streams.get(streamName);
      if (!stream) {
        const notFound = new streamsPb.ReadResp.StreamNotFound();
        const identifier = new sharedPb.StreamIdentifier();
        identifier.setStreamName(Buffer.from(streamName, "utf8"));
        notFound.setStreamIdentifier(identifier);
        const response = new streamsPb.ReadResp();
        response.setStreamNotFound(notFound);
        call.write(response);
        call.end();
        return;
      }
      let selected: LogRecord[];
      if (backwards) {
        const from = streamOptions?.hasRevision() ? Number(streamOptions.getRevision()) : stream.length - 1;
        selected = stream.slice(0, from + 1).reverse();
      } else {
        const from = streamOptions?.hasRevision() ? Number(streamOptions.getRevision()) : 0;
        selected = stream.slice(from);
      }
      for (const record of selected.slice(0, count)) call.write(toReadResp(record));
      call.end();
      return;
    }

    const allOptions = options.getAll();
    const position = allOptions?.hasPosition() ? Number(allOptions.getPosition()?.getCommitPosition()) : undefined;
    const fromEnd = allOptions?.hasEnd() ?? false;

    if (options.hasSubscription()) {
      handleSubscription(call, fromEnd ? Infinity : (position ?? -1), accept);
      return;
    }
    let selected: LogRecord[];
    if (backwards) {
      const before = fromEnd || position === undefined ? Infinity : position;
      selected = log.filter((record) => record.position < before).reverse();
    } else {
      const from = fromEnd ? Infinity : (position ?? -1);
      selected = log.filter((record) => record.position >= from);
    }
    for (const record of selected.filter(accept).slice(0, count)) call.write(toReadResp(record));
    call.end();
  }

  function handleSubscription(
    call: grpc.ServerWritableStream<ReadReq, ReadResp>,
    after: number,
    accept: (record: LogRecord) => boolean,
  ): void {
    const confirmation = new streamsPb.ReadResp.SubscriptionConfirmation();
    confirmation.setSubscriptionId(randomUUID());
    const confirmed = new streamsPb.ReadResp();
    confirmed.setConfirmation(confirmation);
    call.write(confirmed);
    // Catch-up and going live happen in one synchronous turn, so no append can fall between.
    for (const record of log) if (record.position > after && accept(record)) call.write(toReadResp(record));
    const caughtUp = new streamsPb.ReadResp();
    caughtUp.setCaughtUp(new streamsPb.ReadResp.CaughtUp());
    call.write(caughtUp);
    const listener = (record: LogRecord) => {
      if (accept(record)) call.write(toReadResp(record));
    };
    liveListeners.add(listener);
    const detach = () => liveListeners.delete(listener);
    call.on("cancelled", detach);
    call.on("close", detach);
    call.on("error", detach);
  }

  // ---- Server ----------------------------------------------------------------------------

  const server = new grpc.Server();
  const calls = new Set<grpc.ServerWritableStream<ReadReq, ReadResp>>();
  server.addService(streamsGrpc.StreamsService, {
    read(call: grpc.ServerWritableStream<ReadReq, ReadResp>) {
      calls.add(call);
      call.on("close", () => calls.delete(call));
      try {
        handleRead(call);
      } catch (error) {
        call.destroy(error as Error);
      }
    },
    append(call: grpc.ServerReadableStream<AppendReq, AppendResp>, callback: grpc.sendUnaryData<AppendResp>) {
      const messages: AppendReq[] = [];
      call.on("data", (message: AppendReq) => messages.push(message));
      call.on("end", () => {
        try {
          callback(null, handleAppend(messages));
        } catch (error) {
          callback(error as grpc.ServiceError);
        }
      });
    },
    delete(_call: unknown, callback: grpc.sendUnaryData<never>) {
      callback({ code: grpc.status.UNIMPLEMENTED, details: "stand-in: Delete not implemented" } as grpc.ServiceError);
    },
    tombstone(_call: unknown, callback: grpc.sendUnaryData<never>) {
      callback({ code: grpc.status.UNIMPLEMENTED, details: "stand-in: Tombstone not implemented" } as grpc.ServiceError);
    },
    batchAppend(call: grpc.ServerDuplexStream<unknown, unknown>) {
      call.destroy(Object.assign(new Error("stand-in: BatchAppend not implemented"), { code: grpc.status.UNIMPLEMENTED }));
    },
  });
  server.addService(featuresGrpc.ServerFeaturesService, {
    getSupportedMethods(_call: unknown, callback: grpc.sendUnaryData<InstanceType<FeaturesPb["SupportedMethods"]>>) {
      const supported = new featuresPb.SupportedMethods();
      supported.setEventStoreServerVersion("0.0.0-protocol-stand-in");
      supported.setMethodsList(
        ["Read", "Append"].map((name) => {
          const method = new featuresPb.SupportedMethod();
          method.setServiceName("event_store.client.streams.Streams");
          method.setMethodName(name);
          method.setFeaturesList(name === "Read" ? ["all", "stream"] : []);
          return method;
        }),
      );
      callback(null, supported);
    },
  });

  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, boundPort) =>
      error ? reject(error) : resolve(boundPort),
    );
  });

  return {
    connectionString: `esdb://127.0.0.1:${port}?tls=false`,
    recordCount: () => log.length,
    async stop() {
      liveListeners.clear();
      for (const call of calls) call.end();
      await new Promise<void>((resolve) => {
        const force = setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, 1_000);
        server.tryShutdown(() => {
          clearTimeout(force);
          resolve();
        });
      });
    },
  };
}
