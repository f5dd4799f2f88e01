# Stand-in for the official prom/prometheus image from Debian's package: the same entrypoint
# (/bin/prometheus), data directory (/prometheus, owned by nobody), user and wget for health checks.
ARG BASE
FROM ${BASE}
RUN apt-get update \
  && apt-get install -y --no-install-recommends prometheus wget \
  && apt-get clean \
  && rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin /usr/share/doc /usr/share/man \
  && mkdir -p /prometheus /etc/prometheus \
  && chown nobody:nogroup /prometheus
USER nobody
WORKDIR /prometheus
EXPOSE 9090
VOLUME ["/prometheus"]
ENTRYPOINT ["/bin/prometheus"]
CMD ["--config.file=/etc/prometheus/prometheus.yml", "--storage.tsdb.path=/prometheus"]
