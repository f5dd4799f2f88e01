# Stand-in for the official prom/alertmanager image from Debian's package: the same entrypoint
# (/bin/alertmanager), data directory (/alertmanager, owned by nobody), user and wget for health checks.
ARG BASE
FROM ${BASE}
RUN apt-get update \
  && apt-get install -y --no-install-recommends prometheus-alertmanager wget \
  && apt-get clean \
  && rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin /usr/share/doc /usr/share/man \
  && ln -s /usr/bin/prometheus-alertmanager /usr/bin/alertmanager \
  && mkdir -p /alertmanager /etc/alertmanager \
  && chown nobody:nogroup /alertmanager
USER nobody
WORKDIR /alertmanager
EXPOSE 9093
VOLUME ["/alertmanager"]
ENTRYPOINT ["/bin/alertmanager"]
CMD ["--config.file=/etc/alertmanager/alertmanager.yml", "--storage.path=/alertmanager"]
