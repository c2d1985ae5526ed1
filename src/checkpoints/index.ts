/**
 * Checkpoints and rollback, as the rest of Ralph uses them. The loop takes the
 * CheckpointPort (createCheckpointPort); the commands that list, prune and
 * restore checkpoints and the agents' verify tool take the functions below.
 * Everything else in this folder is its own business: how a repository's state
 * is captured (capture/), stored as git objects and refs through git's own
 * batch commands (store/, git/), and put back exactly (rollback/).
 */
export { createCheckpointPort, type CheckpointPortOptions } from './checkpoint-port.js';
export {
  createCheckpoint,
  dropCheckpoint,
  findCheckpoint,
  listCheckpoints,
  prepareProjectRepository,
  pruneCheckpoints,
  restoreCheckpoint,
  rollbackToCheckpoint,
  type Checkpoint,
} from './git-checkpoints.js';
export { readRestoreMove } from './restore-preview.js';
