/** What `--otlp`, `--otlp-file` and `--otlp-content` ask for, with the OTEL_* environment already read (source/cli/otlp-options.ts). */
export type OtlpProtocol = 'http/protobuf' | 'http/json';

export type OtlpEndpoint = {
	/** The traces URL, `/v1/traces` included. */
	url: string;
	protocol: OtlpProtocol;
	headers: Record<string, string>;
	/** How long one request may take, retries included. */
	timeoutMs: number;
};

export type OtlpOptions = {
	endpoint: OtlpEndpoint | undefined;
	/** `--otlp-file`: OTLP JSON lines written here. */
	file: string | undefined;
	content: boolean;
	contentLimit: number;
	/** The resource: `service.name` and OTEL_RESOURCE_ATTRIBUTES. */
	resource: Record<string, string>;
	/** On exit, how long to go on sending what is queued before counting the rest as dropped. */
	flushMs: number;
	/** perscope's version, naming the instrumentation scope of the spans. */
	version: string;
};
