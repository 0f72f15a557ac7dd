"""Config keys of the CPU stack that the driver sets and its workers read, in a module that
imports nothing, so that a command can name them without importing verl."""

# where the hf rollout (pac_verl.cpu.hf_rollout) writes its weight log, under
# actor_rollout_ref.rollout.custom
HF_ROLLOUT_LOG_KEY = "pac_hf_rollout_log"
