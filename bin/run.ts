import { ConfigError, loadConfig } from '../shared/config';
import { StartupError } from '../shared/db';
import { logger } from '../shared/logger';

/**
 * Runs a process entrypoint: configuration problems and unreachable dependencies end the process with one clear
 * line; SIGINT/SIGTERM close it gracefully.
 */
export async function run(name: string, start: () => Promise<{ close(): Promise<void> }>): Promise<void> {
  const major = Number(process.versions.node.split('.')[0]);
  if (major < 22) {
    console.error(
      `${name}: Node.js ${process.version} is not supported; start it through npm (npm start), which runs the project's Node.js 24 LTS`,
    );
    process.exit(1);
  }
  try {
    loadConfig();
    const started = await start();
    let stopping = false;
    const stop = async (signal: string) => {
      if (stopping) return;
      stopping = true;
      logger.info({ signal }, `${name} stopping`);
      const force = setTimeout(() => process.exit(1), 10_000).unref();
      await started.close();
      clearTimeout(force);
      process.exit(0);
    };
    process.on('SIGINT', () => void stop('SIGINT'));
    process.on('SIGTERM', () => void stop('SIGTERM'));
  } catch (err) {
    if (err instanceof StartupError || err instanceof ConfigError) {
      console.error(`${name}: ${err.message}`);
    } else {
      console.error(`${name}: failed to start:`, err);
    }
    process.exit(1);
  }
}
