# A stand-in for the official postgres image where no image registry answers: Debian's
# PostgreSQL 15, configured the same way (POSTGRES_USER, POSTGRES_PASSWORD, POSTGRES_DB, data in
# /var/lib/postgresql/data, pg_isready on the path).
ARG BASE_IMAGE
FROM ${BASE_IMAGE}
RUN apt-get update -q \
 && apt-get install -y -q --no-install-recommends postgresql-15 \
 && pg_dropcluster 15 main \
 && rm -rf /var/lib/apt/lists/* /var/cache/apt/archives/*.deb \
 && mkdir -p /var/lib/postgresql/data /var/run/postgresql \
 && chown -R postgres:postgres /var/lib/postgresql /var/run/postgresql \
 && chmod 700 /var/lib/postgresql/data
ENV PATH=/usr/lib/postgresql/15/bin:$PATH \
    PGDATA=/var/lib/postgresql/data
COPY postgres-entrypoint.sh /usr/local/bin/postgres-entrypoint.sh
# The data directory belongs to postgres in the image, so a new named volume does too.
USER postgres
EXPOSE 5432
# SIGINT is PostgreSQL's fast shutdown: sessions are ended and the data is left consistent.
STOPSIGNAL SIGINT
ENTRYPOINT ["/usr/local/bin/postgres-entrypoint.sh"]
