/**
 * Where the gateway listens: `PORT` and `HOST` from the environment first,
 * then the configuration's `port` and `host`, then 127.0.0.1:8080. `npm
 * start` listens there, and `npm run send` sends there by default, so that
 * the tool finds a gateway started with `PORT=9090 npm start`.
 */
import { ConfigError } from "../config/config.ts"

export interface ListenAddress {
  readonly port: number
  readonly host: string
}

export const listenPortDefault = 8080
export const listenHostDefault = "127.0.0.1"

const portOf = (text: string): number => {
  const port = Number(text)
  if (!Number.isInteger(port) || port < 0 || port > 65_535 || text.trim() === "")
    throw new ConfigError(`PORT must be a port number from 0 to 65535, not "${text}"`)
  return port
}

export const listenAddressOf = (
  config: { readonly port?: number | undefined; readonly host?: string | undefined } | undefined,
  env: Readonly<Record<string, string | undefined>> = process.env,
): ListenAddress => ({
  port: env.PORT === undefined ? (config?.port ?? listenPortDefault) : portOf(env.PORT),
  host: env.HOST ?? config?.host ?? listenHostDefault,
})
