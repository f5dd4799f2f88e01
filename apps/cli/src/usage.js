// Every command's usage text, in a module with no imports. Plain JavaScript (types in usage.d.ts)
// so that bin/fabscope.js prints help without starting the TypeScript loader; every command's
// module is imported only when that command runs.

export const COLLECT_USAGE = `usage:
  fabscope collect host [--sysfs /sys] [--procfs /proc] [--include RE] [--exclude RE]
                        [--listen 127.0.0.1:9465] [--once] [--ethtool DIR]
                        (RoCE pause: ethtool -S runs on /sys only; --ethtool: recorded outputs, DIR/<netdev>)
  fabscope collect fabric --source emulator --url http://127.0.0.1:PORT [--listen …] [--once]
                        [--shard K/N]   (any source: only switch group K of N, for N collectors in parallel)
                        [--raw-counters auto|on|off]   (any source: the raw counters beside the rates
                        the collector computes; auto: on up to 20,000 ports; a scrape naming families
                        with name[] gets them either way)
  fabscope collect fabric --source infiniband [--fabric NAME] [--reader mad|perfquery]
                        [--ibnetdiscover PATH] [--perfquery PATH] [--timeout-ms 5000] [--concurrency 4]
                        [--listen 127.0.0.1:9466] [--once] [--reset-counters]
                        (mad: PortInfo, PortCounters, PortCountersExtended of every switch and host port
                        by LID through libibumad, many in flight; perfquery: two processes per node;
                        --reset-counters: clear narrow PortCounters before they saturate, as OpenSM's
                        PerfMgr does, counting across the clears; off: other tools read them too)
  fabscope collect fabric --source omnipath --targets FILE [--opapmaquery PATH] [--timeout-ms 5000]
                        [--concurrency 4] [--listen 127.0.0.1:9466] [--once]
  fabscope collect fabric --source snmp --targets FILE [--timeout-ms 5000] [--concurrency 4]
                        [--listen 127.0.0.1:9466] [--once]
                        (Ethernet switches: IF-MIB 64-bit counters and LLDP-MIB neighbours by GetBulk;
                        FILE: "HOST[:PORT] v2c COMMUNITY" or "HOST[:PORT] v3 USER [AUTH KEY [PRIV KEY]] [context=NAME]")
  fabscope collect fabric --source gnmi --targets FILE [--listen 127.0.0.1:9466] [--once]
                        (Ethernet switches streaming OpenConfig interface and QoS counters: gNMI
                        Subscribe STREAM/SAMPLE; FILE: "HOST[:PORT] insecure|tls [name=N] [ca=FILE]
                        [username=U password-env=VAR|password-file=FILE] [sample-ms=10000] …")
`;

export const PARSE_USAGE = `usage: fabscope parse perfquery|opapmaquery FILE   (FILE "-" reads stdin)
`;

export const EMULATE_USAGE = `fabscope emulate FILE [--speed N] [--json] [--sysfs DIR]
  Runs a scenario file (docs/scenario-files.md) headless and prints each phase's throughput.
  --speed N runs N× faster than real time (default 1; 0 = as fast as possible); --json prints
  the result as JSON; --sysfs DIR (or FABSCOPE_EMULATOR_SYSFS) keeps live per-host sysfs trees.`;

const EMULATOR_USAGE = `fabscope emulator [--scenario NAME | --topology FILE] [--listen HOST:PORT] [--seed N] [--sysfs DIR]
  Runs the fabric emulator alone, in real time, serving its HTTP interface (docs/architecture.md).
  Defaults: --scenario $FABSCOPE_SCENARIO or ar-demo (or $FABSCOPE_TOPOLOGY), --listen 127.0.0.1:7070, --seed 1.
  --sysfs DIR (or FABSCOPE_EMULATOR_SYSFS): live DIR/<host>/sys and DIR/<host>/proc trees.`;

const SERVE_USAGE = `fabscope serve
  Runs the API and dashboard alone, reading PROMETHEUS_URL (or scraping FABSCOPE_COLLECTOR_URLS
  itself) and driving the emulator at FABSCOPE_EMULATOR_URL when set. The fabric is
  FABSCOPE_TOPOLOGY (a topology file) or FABSCOPE_SCENARIO. With FABSCOPE_FABRIC=infiniband it
  reads the local InfiniBand subnet itself: topology from ibnetdiscover, routes from the subnet
  manager's tables, counters and port state by MADs (run it under ibsim-run for a simulated one).
  With FABSCOPE_FABRIC=snmp it reads the Ethernet switches FABSCOPE_SNMP_TARGETS lists: topology
  from their LLDP neighbours, counters from IF-MIB. Settings: README.`;

export const TOP_USAGE = `top [--url URL] [--once] [--interval S] [--token T] [--unit bytes|bits]
                        opatop-like terminal view of a fabscope server's REST API (default
                        http://127.0.0.1:8080): summary, histograms, ranked link directions;
                        --once prints one screen and exits (non-zero when the server is unreachable);
                        rates in bytes (GB/s, default) or bits (Gb/s) per second, g switches`;

export const USAGE = `usage: fabscope <command> [options]

commands:
  demo [--prometheus]   emulated fabric → collector → store → API and dashboard
                        (HOST, PORT, FABSCOPE_SCENARIO, PROMETHEUS_URL, … see README)
  demo --fabric ibsim [--routing ftree|minhop|updn]
                        the scenario as a real InfiniBand subnet (ibsim + OpenSM), read only through
                        discovery, the SM's tables and MADs; the emulator is its traffic source
  demo --fabric roce    the roce-leafspine scenario as simulated Ethernet switches (snmpsim), found
                        by LLDP and read by SNMP; the emulator is their traffic source
  scenarios             list the built-in fabric scenarios
  ${EMULATOR_USAGE.replaceAll('\n', '\n  ')}
  ${EMULATE_USAGE.replaceAll('\n', '\n  ')}
  ${SERVE_USAGE.replaceAll('\n', '\n  ')}
  ${COLLECT_USAGE.replace(/^usage:\n/, '').replaceAll('\n', '\n  ')}
  ${PARSE_USAGE.replace(/^usage: fabscope /, '').replaceAll('\n', '\n  ')}
  topology generate --scenario NAME [--routing minhop|fattree] [--json]
                        build a fabric and its forwarding tables: {hosts, switches, …, routingMs}
  topology parse FILE [--format F] [--json]
                        read an ibnetdiscover / ibsim / ibnetdiscover -p / opareport XML dump
  route (--scenario NAME | --topology FILE) --from A --to B [--ibroute FILE] [--json]
                        static route as opareport -o route prints it, with a latency estimate
  analyze (--scenario NAME | --topology FILE) --pattern P [--json]
                        flows sharing links under static routing (P: pairs:A-B,C-D, shift:K,
                        permutation[:SEED], all-to-all, incast:HOST, bisection)
  ${TOP_USAGE}
  why JOB [--url URL] [--from T] [--to T] [--json]
                        what slowed a job: verdict, culprits, worst directions, unknowns
  help                  this text
`;
