"""`python3 -m castkit convert DIR -o OUT --to FORMAT [--scheduler tls://HOST:8786 --tls-...]`: a folder
conversion with castkit.batch, on this machine's cores or, with --scheduler, on a Dask cluster.
The options and exit codes are those of `castkit convert DIR` (0 done, 1 a file failed, 2 a usage
error, 130 interrupted); docs/batch.md."""

import argparse
import sys

from . import Error
from . import batch


def numbers(count, shape):
    """An argparse type: `count` comma-separated numbers, as `castkit convert --within` takes."""
    def parse(text):
        try:
            values = tuple(float(part) for part in text.split(","))
        except ValueError:
            values = ()
        if len(values) != count:
            raise argparse.ArgumentTypeError(f"takes {shape} ({count} numbers, commas between), "
                                             f"not '{text}'")
        return values
    return parse


def parser():
    root = argparse.ArgumentParser(prog="python3 -m castkit",
                                   description="castkit's folder conversion on local processes "
                                   "or a Dask cluster")
    commands = root.add_subparsers(dest="command", required=True)
    convert = commands.add_parser("convert", help="Convert every file castkit reads under DIR")
    convert.add_argument("input", metavar="DIR", help="the folder to convert")
    convert.add_argument("-o", "--output", required=True, metavar="OUT", help="the output folder")
    convert.add_argument("--to", required=True, metavar="FORMAT", help="the output format")
    convert.add_argument("--from", dest="from_format", metavar="FORMAT",
                         help="input format, overriding the extensions")
    convert.add_argument("--anims", action="append", default=[], metavar="DIR",
                         help="attach every animation file under this folder to the models")
    convert.add_argument("--textures", action="append", default=[], metavar="DIR",
                         help="texture folder (repeatable), searched after each input's own")
    convert.add_argument("--texture-mode", default="automatic",
                         choices=["automatic", "embed", "copy", "reference"])
    convert.add_argument("--allow-any-path", action="store_true",
                         help="read files the inputs name anywhere")
    instances = convert.add_mutually_exclusive_group()
    instances.add_argument("--keep-instance-references", dest="inline_instances",
                           action="store_false", default=True,
                           help="glTF: name the files Instances reference instead of merging "
                                "them (merging is the default)")
    instances.add_argument("--inline-instances", dest="inline_instances", action="store_true",
                           help="glTF: merge the files Instances reference (the default; kept "
                                "for scripts)")
    convert.add_argument("--strict", action="store_true",
                         help="refuse to write a broken mesh instead of leaving the part out")
    convert.add_argument("--within", type=numbers(4, "X,Y,Z,R"), metavar="X,Y,Z,R",
                         help="maps: keep the Instances within R of the point (the map's units "
                              "and axes)")
    convert.add_argument("--box", type=numbers(6, "X0,Y0,Z0,X1,Y1,Z1"),
                         metavar="X0,Y0,Z0,X1,Y1,Z1",
                         help="maps: keep the Instances inside the box (min and max corners)")
    convert.add_argument("--include", action="append", default=[], metavar="GLOB",
                         help="maps: keep only the Instances whose name or model file's stem "
                              "matches (repeatable)")
    convert.add_argument("--exclude", action="append", default=[], metavar="GLOB",
                         help="maps: leave out the Instances whose name or model file's stem "
                              "matches (repeatable)")
    convert.add_argument("-r", "--recursive", action="store_true", help="include sub-folders")
    convert.add_argument("-f", "--force", action="store_true",
                         help="convert even where the output is newer than its input")
    convert.add_argument("-q", "--quiet", action="store_true", help="no progress or summary")
    convert.add_argument("--report", metavar="FILE", help="write the JSON report here")
    convert.add_argument("-j", "--jobs", type=int, metavar="N",
                         help="local worker processes (default: one per core)")
    convert.add_argument("--scheduler", metavar="ADDRESS",
                         help="run on the Dask cluster of this scheduler (tcp://HOST:8786)")
    for option, what in (("--tls-ca-file", "the certificate authority that signed the "
                          "cluster's certificates"),
                         ("--tls-cert", "this client's certificate"),
                         ("--tls-key", "this client's private key")):
        convert.add_argument(option, metavar="FILE",
                             help=f"with --scheduler tls://...: {what} (docs/batch.md)")
    convert.add_argument("--send-bytes", action="store_true",
                         help="with --scheduler: workers that do not see these paths get each "
                              "file's bytes and send back what they write")
    return root


def main(argv=None):
    arguments = parser()
    args = arguments.parse_args(argv)
    if args.send_bytes and args.scheduler is None:
        arguments.error("--send-bytes needs --scheduler")
    if args.send_bytes and args.allow_any_path:
        arguments.error("--send-bytes cannot send the files --allow-any-path lets inputs name")
    tls = (args.tls_ca_file, args.tls_cert, args.tls_key)
    if any(tls) and not all(tls):
        arguments.error("--tls-ca-file, --tls-cert and --tls-key go together")
    if any(tls) and not (args.scheduler or "").startswith("tls://"):
        arguments.error("the --tls options need --scheduler tls://HOST:PORT")
    security = None
    if all(tls):
        from distributed.security import Security
        security = Security(tls_ca_file=args.tls_ca_file, tls_client_cert=args.tls_cert,
                            tls_client_key=args.tls_key, require_encryption=True)
    try:
        run = batch.convert(args.input, args.output, args.to, jobs=args.jobs,
                            scheduler=args.scheduler, security=security,
                            report=args.report, quiet=args.quiet,
                            from_format=args.from_format, anims=args.anims,
                            recursive=args.recursive, force=args.force, textures=args.textures,
                            texture_mode=args.texture_mode, allow_any_path=args.allow_any_path,
                            inline_instances=args.inline_instances, strict=args.strict,
                            within=args.within, box=args.box, include=args.include,
                            exclude=args.exclude,
                            transfer="bytes" if args.send_bytes else "paths")
    except ValueError as error:  # a usage error (a selection that cannot be meant)
        sys.stderr.write(f"python3 -m castkit: convert: {error}\n")
        return 2
    except Error as error:
        sys.stderr.write(f"python3 -m castkit: convert: {error}\n")
        return 2 if error.rule == "output.format" else 1
    return run.exit_code


if __name__ == "__main__":
    sys.exit(main())
