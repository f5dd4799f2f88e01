// Command fake-gnmi-target serves the fake gNMI target of github.com/openconfig/gnmi
// (testing/fake/gnmi: its Client and generators) on a loopback address. The module's own
// fake_server listens on every interface; tests must stay on 127.0.0.1, so this wraps the same
// Client in a server bound to the address given.
package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"flag"
	"fmt"
	"log"
	"math/big"
	"net"
	"os"
	"time"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	fake "github.com/openconfig/gnmi/testing/fake/gnmi"
	fpb "github.com/openconfig/gnmi/testing/fake/proto"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/proto"
)

type target struct {
	gpb.UnimplementedGNMIServer
	config *fpb.Config
}

// Subscribe runs the module's fake client on a copy of the config, so every stream starts its generators afresh.
func (t *target) Subscribe(stream gpb.GNMI_SubscribeServer) error {
	if creds := t.config.GetCredentials(); creds != nil {
		md, _ := metadata.FromIncomingContext(stream.Context())
		if first(md, "username") != creds.Username || first(md, "password") != creds.Password {
			return status.Error(codes.Unauthenticated, "wrong username or password")
		}
	}
	c := fake.NewClient(proto.Clone(t.config).(*fpb.Config))
	defer c.Close()
	return c.Run(stream)
}

func first(md metadata.MD, key string) string {
	if v := md.Get(key); len(v) > 0 {
		return v[0]
	}
	return ""
}

// selfSigned writes a certificate for 127.0.0.1 and its key when the files are not there yet (a restart reuses them).
func selfSigned(certFile, keyFile string) (tls.Certificate, error) {
	if _, err := os.Stat(certFile); err != nil {
		key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			return tls.Certificate{}, err
		}
		tmpl := &x509.Certificate{
			SerialNumber:          big.NewInt(1),
			Subject:               pkix.Name{CommonName: "fake-gnmi-target"},
			NotBefore:             time.Now().Add(-time.Hour),
			NotAfter:              time.Now().Add(24 * time.Hour),
			IPAddresses:           []net.IP{net.ParseIP("127.0.0.1")},
			DNSNames:              []string{"localhost"},
			KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
			ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
			IsCA:                  true,
			BasicConstraintsValid: true,
		}
		der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
		if err != nil {
			return tls.Certificate{}, err
		}
		keyDer, err := x509.MarshalECPrivateKey(key)
		if err != nil {
			return tls.Certificate{}, err
		}
		if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDer}), 0o600); err != nil {
			return tls.Certificate{}, err
		}
		if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644); err != nil {
			return tls.Certificate{}, err
		}
	}
	return tls.LoadX509KeyPair(certFile, keyFile)
}

func main() {
	configFile := flag.String("config", "", "fake.proto Config in text format")
	addr := flag.String("addr", "127.0.0.1:0", "loopback address to listen on")
	certFile := flag.String("cert", "", "TLS certificate (made, self-signed, when absent); empty: no TLS")
	keyFile := flag.String("key", "", "TLS key, beside -cert")
	flag.Parse()
	text, err := os.ReadFile(*configFile)
	if err != nil {
		log.Fatalf("reading -config: %v", err)
	}
	config := &fpb.Config{}
	if err := prototext.Unmarshal(text, config); err != nil {
		log.Fatalf("parsing %s: %v", *configFile, err)
	}
	host, _, err := net.SplitHostPort(*addr)
	if err != nil || !net.ParseIP(host).IsLoopback() {
		log.Fatalf("-addr %q is not a loopback address", *addr)
	}
	var opts []grpc.ServerOption
	if *certFile != "" {
		cert, err := selfSigned(*certFile, *keyFile)
		if err != nil {
			log.Fatalf("TLS: %v", err)
		}
		opts = append(opts, grpc.Creds(credentials.NewTLS(&tls.Config{Certificates: []tls.Certificate{cert}})))
	}
	lis, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatalf("listen: %v", err)
	}
	server := grpc.NewServer(opts...)
	gpb.RegisterGNMIServer(server, &target{config: config})
	fmt.Printf("listening on %s\n", lis.Addr())
	if err := server.Serve(lis); err != nil {
		log.Fatalf("serve: %v", err)
	}
}
