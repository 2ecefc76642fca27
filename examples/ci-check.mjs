// A CI check: fail the job when an agent run did not complete.
//   perstack run my-expert "query" | node ci-check.mjs
import {createReducer} from 'perscope';

const reducer = createReducer({source: 'stdin'});
for await (const chunk of process.stdin) reducer.pushChunk(chunk);
reducer.end();

const {jobs, diagnostics} = reducer.summary();
for (const job of jobs) {
	console.log(`job ${job.jobId}: ${job.status}, ${job.steps} steps, ${job.usage.totalTokens} tokens`);
	for (const run of job.runs) console.log(`  ${run.expertKey}: ${run.status}${run.error ? ` (${run.error})` : ''}`);
}

const commands = reducer.model.activities.filter(activity => activity.type === 'exec');
console.log(`${commands.length} commands run, ${diagnostics.length} bad lines`);
process.exitCode = jobs.every(job => job.status === 'completed') ? 0 : 1;
