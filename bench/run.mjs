// `npm run bench`: builds, then runs every suite in turn (or those named: `npm run bench -- client engine`).
const suites = ['client', 'engine', 'fs-search', 'text-calls', 'workflow', 'cold-start'];
const wanted = process.argv.slice(2);
for (const name of wanted.length > 0 ? wanted : suites) {
  const suite = await import(`./suites/${name}.mjs`);
  console.log(`\n# ${name}`);
  await suite.run();
}
