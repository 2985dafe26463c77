#!/usr/bin/env python3
"""Sign-in ID tokens made by an independent implementation (PyJWT over pyca/cryptography), for
the server's tests: the server must accept what a real issuer signs, not what its own code signs.

  make_id_tokens.py keys DIR              RSA 2048 (kid rsa1), EC P-256 (kid ec1) and a second
                                          RSA key under kid rsa1 (rsa1-other.pem, not in the set)
                                          as PEM files, and the issuer's set DIR/jwks.json; also
                                          DIR/jwks-weak.json, one RSA 1024 key (kid weak1)
  make_id_tokens.py sign DIR KEY ALG KID CLAIMS_JSON
                                          prints the token: KEY is rsa1, ec1, rsa1-other or weak1,
                                          ALG RS256 or ES256; CLAIMS_JSON the claims as given
"""
import json
import os
import sys

import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa


def write_key(directory, name, key):
    pem = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    with open(os.path.join(directory, name + ".pem"), "wb") as f:
        f.write(pem)


def jwk(public_key, kid, alg):
    algorithm = jwt.algorithms.RSAAlgorithm if alg == "RS256" else jwt.algorithms.ECAlgorithm
    key = json.loads(algorithm.to_jwk(public_key))
    key.update({"kid": kid, "alg": alg, "use": "sig"})
    return key


def keys(directory):
    os.makedirs(directory, exist_ok=True)
    rsa_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    ec_key = ec.generate_private_key(ec.SECP256R1())
    other = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    weak = rsa.generate_private_key(public_exponent=65537, key_size=1024)
    for name, key in [("rsa1", rsa_key), ("ec1", ec_key), ("rsa1-other", other), ("weak1", weak)]:
        write_key(directory, name, key)
    with open(os.path.join(directory, "jwks.json"), "w") as f:
        json.dump({"keys": [jwk(rsa_key.public_key(), "rsa1", "RS256"), jwk(ec_key.public_key(), "ec1", "ES256")]}, f)
    with open(os.path.join(directory, "jwks-weak.json"), "w") as f:
        json.dump({"keys": [jwk(weak.public_key(), "weak1", "RS256")]}, f)


def sign(directory, key_name, alg, kid, claims):
    with open(os.path.join(directory, key_name + ".pem"), "rb") as f:
        key = serialization.load_pem_private_key(f.read(), password=None)
    print(jwt.encode(json.loads(claims), key, algorithm=alg, headers={"kid": kid}))


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "keys":
        keys(sys.argv[2])
    elif len(sys.argv) == 7 and sys.argv[1] == "sign":
        sign(*sys.argv[2:])
    else:
        sys.exit(__doc__)
