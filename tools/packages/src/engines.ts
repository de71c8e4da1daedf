/**
 * The one form of `engines.node` the packages use, `>=MAJOR.MINOR.PATCH`,
 * and whether a Node version meets it. Anything else is refused, so a
 * package cannot claim a range this check does not understand.
 */
const lowerBound = /^>=(\d+)\.(\d+)\.(\d+)$/

export const parseVersion = (version: string): [number, number, number] => {
  const match = /^v?(\d+)\.(\d+)\.(\d+)/.exec(version)
  if (match === null) throw new Error(`${version} is not a Node version`)
  return [Number(match[1]), Number(match[2]), Number(match[3])]
}

export const meetsEngines = (range: string, version: string): boolean => {
  const match = lowerBound.exec(range)
  if (match === null) throw new Error(`engines.node "${range}" is not of the form >=MAJOR.MINOR.PATCH`)
  const wanted = [Number(match[1]), Number(match[2]), Number(match[3])]
  const have = parseVersion(version)
  for (let i = 0; i < 3; i++) if (have[i] !== wanted[i]) return (have[i] ?? 0) > (wanted[i] ?? 0)
  return true
}
