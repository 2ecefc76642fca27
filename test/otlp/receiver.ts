import {createServer, type IncomingMessage, type ServerResponse} from 'node:http';
import {createRequire} from 'node:module';

/*
 * A local OTLP/HTTP receiver for the export tests, on the loopback interface only. It decodes protobuf with the
 * official OTLP definitions (as compiled in an earlier @opentelemetry/otlp-transformer, installed under the name
 * otlp-proto-definitions) and JSON as it is, into one plain shape, so the two can be compared with each other
 * and with `--otlp-file`.
 */

/** The part of the generated code used here (its declaration file types it only as a protobufjs Root). */
type MessageType = {
	decode: (bytes: Uint8Array) => object;
	toObject: (message: object, options: {longs: StringConstructor; bytes: StringConstructor; enums: NumberConstructor}) => unknown;
};
type Root = {opentelemetry: {proto: {collector: {trace: {v1: {ExportTraceServiceRequest: MessageType}}}}}};
const root = createRequire(import.meta.url)('otlp-proto-definitions/build/src/generated/root.js') as Root;
const {ExportTraceServiceRequest} = root.opentelemetry.proto.collector.trace.v1;

export type Value = string | number | boolean | Value[];

export type ReceivedSpan = {
	serviceName: string;
	resource: Record<string, Value>;
	traceId: string;
	spanId: string;
	parentSpanId: string;
	name: string;
	kind: number;
	/** Milliseconds: protobuf and JSON carry nanoseconds, which both keep exactly, but compare at the log's precision. */
	startMs: number;
	endMs: number;
	status: {code: number; message: string};
	attributes: Record<string, Value>;
	links: Array<{traceId: string; spanId: string; attributes: Record<string, Value>}>;
	events: Array<{name: string; timeMs: number; attributes: Record<string, Value>}>;
};

export type Request = {contentType: string; headers: IncomingMessage['headers']; at: number; spans: ReceivedSpan[]};

/** What to answer the nth request (from 0) with; 'hang' never answers. */
export type Answer = {status: number; headers?: Record<string, string>} | 'hang';

type AnyValue = {
	stringValue?: string | null;
	intValue?: string | number | null;
	boolValue?: boolean | null;
	doubleValue?: number | null;
	arrayValue?: {values?: AnyValue[] | null} | null;
};
type KeyValue = {key?: string | null; value?: AnyValue | null};

function valueOf(value: AnyValue | null | undefined): Value {
	if (!value) return '';
	if (value.stringValue !== undefined && value.stringValue !== null) return value.stringValue;
	if (value.intValue !== undefined && value.intValue !== null) return Number(value.intValue);
	if (value.boolValue !== undefined && value.boolValue !== null) return value.boolValue;
	if (value.doubleValue !== undefined && value.doubleValue !== null) return value.doubleValue;
	return (value.arrayValue?.values ?? []).map(valueOf);
}

function attributesOf(list: KeyValue[] | null | undefined): Record<string, Value> {
	const result: Record<string, Value> = {};
	for (const {key, value} of list ?? []) if (key) result[key] = valueOf(value);
	return result;
}

type SpanLike = {
	traceId?: string | null;
	spanId?: string | null;
	parentSpanId?: string | null;
	name?: string | null;
	kind?: number | null;
	startTimeUnixNano?: string | number | null;
	endTimeUnixNano?: string | number | null;
	status?: {code?: number | null; message?: string | null} | null;
	attributes?: KeyValue[] | null;
	links?: Array<{traceId?: string | null; spanId?: string | null; attributes?: KeyValue[] | null}> | null;
	events?: Array<{name?: string | null; timeUnixNano?: string | number | null; attributes?: KeyValue[] | null}> | null;
};

type RequestLike = {resourceSpans?: Array<{resource?: {attributes?: KeyValue[] | null} | null; scopeSpans?: Array<{spans?: SpanLike[] | null}> | null}> | null};

function nanosToMs(nanos: string | number | null | undefined): number {
	return Math.round(Number(BigInt(nanos ?? 0) / 1000n) / 1000);
}

/** Ids come as hex (JSON) or base64 (protobuf decoded to an object): both become hex. */
function flatten(request: RequestLike, id: (text: string) => string): ReceivedSpan[] {
	const spans: ReceivedSpan[] = [];
	for (const resourceSpans of request.resourceSpans ?? []) {
		const resource = attributesOf(resourceSpans.resource?.attributes);
		for (const scope of resourceSpans.scopeSpans ?? []) {
			for (const span of scope.spans ?? []) {
				spans.push({
					serviceName: String(resource['service.name'] ?? ''),
					resource,
					traceId: id(span.traceId ?? ''),
					spanId: id(span.spanId ?? ''),
					parentSpanId: id(span.parentSpanId ?? ''),
					name: span.name ?? '',
					kind: span.kind ?? 0,
					startMs: nanosToMs(span.startTimeUnixNano),
					endMs: nanosToMs(span.endTimeUnixNano),
					status: {code: span.status?.code ?? 0, message: span.status?.message ?? ''},
					attributes: attributesOf(span.attributes),
					links: (span.links ?? []).map(link => ({traceId: id(link.traceId ?? ''), spanId: id(link.spanId ?? ''), attributes: attributesOf(link.attributes)})),
					events: (span.events ?? []).map(event => ({
						name: event.name ?? '',
						timeMs: nanosToMs(event.timeUnixNano),
						attributes: attributesOf(event.attributes),
					})),
				});
			}
		}
	}

	return spans;
}

export function decodeJson(text: string): ReceivedSpan[] {
	return flatten(JSON.parse(text) as RequestLike, hex => hex);
}

export function decodeProtobuf(bytes: Uint8Array): ReceivedSpan[] {
	const message = ExportTraceServiceRequest.decode(bytes);
	const object = ExportTraceServiceRequest.toObject(message, {longs: String, bytes: String, enums: Number}) as RequestLike;
	return flatten(object, base64 => Buffer.from(base64, 'base64').toString('hex'));
}

/** `--otlp-file`'s lines, each one request. */
export function decodeJsonLines(text: string): ReceivedSpan[] {
	return text
		.split('\n')
		.filter(line => line.trim() !== '')
		.flatMap(decodeJson);
}

export type Receiver = {url: string; requests: Request[]; spans: () => ReceivedSpan[]; close: () => Promise<void>};

export async function startReceiver(answer: (index: number) => Answer = () => ({status: 200})): Promise<Receiver> {
	const requests: Request[] = [];
	let count = 0;
	const hanging: ServerResponse[] = [];
	const server = createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			const reply = answer(count++);
			if (reply === 'hang') {
				hanging.push(response);
				return;
			}

			if (reply.status === 200) {
				const body = Buffer.concat(chunks);
				const contentType = request.headers['content-type'] ?? '';
				const spans = contentType.includes('json') ? decodeJson(body.toString('utf8')) : decodeProtobuf(body);
				requests.push({contentType, headers: request.headers, at: Date.now(), spans});
			} else {
				requests.push({contentType: request.headers['content-type'] ?? '', headers: request.headers, at: Date.now(), spans: []});
			}

			response.writeHead(reply.status, {'content-type': 'application/json', ...reply.headers});
			response.end(reply.status === 200 ? '{}' : '');
		});
	});
	await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
	const address = server.address();
	if (address === null || typeof address === 'string') throw new Error('the receiver has no port');
	const {port} = address;
	return {
		url: `http://127.0.0.1:${port}`,
		requests,
		spans: () => requests.flatMap(request => request.spans),
		close: async () => {
			for (const response of hanging) response.destroy();
			server.closeAllConnections();
			await new Promise<void>(resolve => server.close(() => resolve()));
		},
	};
}
