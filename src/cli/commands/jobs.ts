import { Command } from "commander";
import { formatProblem, loadJobs } from "../../config/load-jobs.ts";

export function jobsCommand(): Command {
  const jobs = new Command("jobs").description("Job definitions (jobs/*.yaml)");
  jobs
    .command("check")
    .description("Validate every job definition; print each error with its file, line and path")
    .argument("[dir]", "folder of job definitions", "jobs")
    .option("--json", "print one JSON object: the jobs loaded and every problem")
    .action(async (dir: string, o: { json?: boolean }) => {
      const { jobs: loaded, problems } = await loadJobs(dir);
      if (problems.length > 0 || loaded.length === 0) process.exitCode = 1;
      if (o.json) {
        const jobs = loaded.map(({ file, job }) => ({ file, name: job.name, inbox: job.inbox }));
        process.stdout.write(`${JSON.stringify({ jobs, problems: problems.map(formatProblem) })}\n`);
        return;
      }
      for (const { file, job } of loaded)
        console.log(
          `ok   ${file} (${job.name}: ${job.inbox} -> segment ${"id" in job.segment ? job.segment.id : `"${job.segment.name}"`})`,
        );
      for (const problem of problems) console.error(`fail ${formatProblem(problem)}`);
      if (loaded.length === 0 && problems.length === 0)
        console.error(`no job definitions (*.yaml) in ${dir}`);
    });
  return jobs;
}
