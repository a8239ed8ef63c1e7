import { Command } from "commander";
import { formatProblem, loadJobs } from "../../config/load-jobs.ts";

export function jobsCommand(): Command {
  const jobs = new Command("jobs").description("Job definitions (jobs/*.yaml)");
  jobs
    .command("check")
    .description("Validate every job definition; print each error with its file, line and path")
    .argument("[dir]", "folder of job definitions", "jobs")
    .action(async (dir: string) => {
      const { jobs: loaded, problems } = await loadJobs(dir);
      for (const { file, job } of loaded)
        console.log(
          `ok   ${file} (${job.name}: ${job.inbox} -> segment ${"id" in job.segment ? job.segment.id : `"${job.segment.name}"`})`,
        );
      for (const problem of problems) console.error(`fail ${formatProblem(problem)}`);
      if (loaded.length === 0 && problems.length === 0)
        console.error(`no job definitions (*.yaml) in ${dir}`);
      if (problems.length > 0 || loaded.length === 0) process.exitCode = 1;
    });
  return jobs;
}
