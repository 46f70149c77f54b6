// Placeholder until the demo issue lands: shows the effective configuration.
export async function run(argv: string[]): Promise<number> {
  process.stdout.write('ralf demo: the scripted-agent demo is not built yet; showing the effective configuration instead.\n\n');
  return (await import('./config.js')).run(argv);
}
