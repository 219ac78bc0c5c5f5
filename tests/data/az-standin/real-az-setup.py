#!/usr/bin/env python3
# Sets up the real Azure CLI (/usr/bin/az: Debian 12's azure-cli 2.45) to run offline against
# arm_server.py on loopback, for the real-client fetch tests:
#   1. a self-signed certificate for 127.0.0.1 (openssl), trusted through REQUESTS_CA_BUNDLE;
#   2. arm_server.py started in its own session (its pid printed, for the test to stop it);
#   3. `az cloud register` of a cloud whose endpoints are that server (AD FS style, so MSAL
#      asks no Microsoft host to validate the authority), `az cloud set`, and
#      `az login --service-principal` against its token endpoint.
# Every az run has proxies that lead nowhere but loopback (HTTPS_PROXY=http://127.0.0.1:9,
# NO_PROXY=127.0.0.1), telemetry, surveys, error recommendations and extension installs off:
# nothing leaves the machine.
#
#   real-az-setup.py WORKDIR [--gpu FILE] [--cpu FILE] [--no-accounts]
# prints: PID of the server. real/az reads WORKDIR from FEEDCHECK_REAL_AZ_DIR.
import argparse
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REAL_AZ = "/usr/bin/az"


def az_env(workdir):
    env = dict(os.environ)
    env.update({
        "AZURE_CONFIG_DIR": os.path.join(workdir, "azure"),
        "REQUESTS_CA_BUNDLE": os.path.join(workdir, "cert.pem"),
        "AZURE_CORE_COLLECT_TELEMETRY": "false",
        "AZURE_CORE_SURVEY_MESSAGE": "false",
        "AZURE_CORE_ERROR_RECOMMENDATION": "off",
        "AZURE_EXTENSION_USE_DYNAMIC_INSTALL": "no",
        "AZURE_CORE_ONLY_SHOW_ERRORS": "true",
        "HTTPS_PROXY": "http://127.0.0.1:9",
        "HTTP_PROXY": "http://127.0.0.1:9",
        "NO_PROXY": "127.0.0.1,localhost",
    })
    env.pop("AZURE_CLI_DISABLE_CONNECTION_VERIFICATION", None)
    return env


def run(argv, env):
    r = subprocess.run(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, timeout=300)
    if r.returncode != 0:
        sys.stderr.write("%s failed (%d): %s\n" % (" ".join(argv[:4]), r.returncode, r.stderr))
        sys.exit(1)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("workdir")
    p.add_argument("--gpu", default="")
    p.add_argument("--cpu", default="")
    p.add_argument("--no-accounts", action="store_true")
    a = p.parse_args()
    os.makedirs(a.workdir, exist_ok=True)
    cert, key = os.path.join(a.workdir, "cert.pem"), os.path.join(a.workdir, "key.pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key,
                    "-out", cert, "-days", "2", "-subj", "/CN=127.0.0.1", "-addext",
                    "subjectAltName=IP:127.0.0.1"], check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, timeout=120)
    argv = [sys.executable, os.path.join(HERE, "arm_server.py"), "--cert", cert, "--key", key,
            "--bodies", HERE, "--log", os.path.join(a.workdir, "requests.log")]
    if a.gpu:
        argv += ["--gpu", a.gpu]
    if a.cpu:
        argv += ["--cpu", a.cpu]
    if a.no_accounts:
        argv += ["--no-accounts"]
    with open(os.path.join(a.workdir, "server.err"), "w") as err:
        server = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=err, stdin=subprocess.DEVNULL,
                                  start_new_session=True, text=True)
    port = server.stdout.readline().strip()
    server.stdout.close()
    if not port:
        sys.stderr.write("arm_server.py did not start\n")
        sys.exit(1)
    env = az_env(a.workdir)
    base = "https://127.0.0.1:%s" % port
    try:
        run([REAL_AZ, "cloud", "register", "--name", "FeedcheckLoopback",
             "--endpoint-resource-manager", base + "/",
             "--endpoint-active-directory", base + "/adfs",
             "--endpoint-active-directory-resource-id", "https://management.loopback/",
             "--endpoint-active-directory-graph-resource-id", "https://graph.loopback/",
             "--endpoint-management", "https://management.loopback/",
             "--suffix-storage-endpoint", "core.windows.net"], env)
        run([REAL_AZ, "cloud", "set", "--name", "FeedcheckLoopback"], env)
        # A service principal of the test's own: not a secret of anyone's.
        run([REAL_AZ, "login", "--service-principal", "--username",
             "11111111-1111-1111-1111-111111111111", "--password", "loopback-test-secret",
             "--tenant", "adfs", "--output", "none"], env)
    except BaseException:
        server.kill()
        raise
    with open(os.path.join(a.workdir, "server.pid"), "w") as f:
        f.write(str(server.pid))
    print(server.pid)


if __name__ == "__main__":
    main()
