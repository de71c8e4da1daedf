/** The parser has no types of its own: what the tests read of its answer. */
declare module "parse-prometheus-text-format" {
  export interface PrometheusSample {
    readonly value?: string
    readonly labels?: Readonly<Record<string, string>>
    readonly buckets?: Readonly<Record<string, string>>
    readonly count?: string
    readonly sum?: string
  }
  export interface PrometheusFamily {
    readonly name: string
    readonly help: string
    readonly type: string
    readonly metrics: ReadonlyArray<PrometheusSample>
  }
  export default function parsePrometheusTextFormat(text: string): Array<PrometheusFamily>
}
